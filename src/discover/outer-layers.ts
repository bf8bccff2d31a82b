/**
 * The layers read from outside the repository: the managed directory an
 * admin points rulec at (every .md below it) and the user's home (each
 * format's personal files). Both are walked with walkTree and read confined
 * to their root, like the repository.
 */
import type { FormatName, SourceFile } from '../types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { sourceId } from '../util/source-id.js';
import { dirnameOf } from '../util/posix-path.js';
import { FORMATS, formatSpec } from '../formats/formats.js';
import { readConfined, type ReadOutcome } from '../confined/read-confined.js';
import { confinedDir } from '../confined/resolve-beneath.js';
import { isBundleOutput } from './output-dir.js';
import { source, undecodableNames } from './source-file.js';
import { noteUndecodable, type UndecodableNames } from '../util/path-bytes.js';
import { pushAll } from '../util/push-all.js';
import { walkTree } from './walk.js';

export function readManaged(managedReal: string, maxBytes: number, diagnostics: Diagnostic[]): SourceFile[] {
  const out: SourceFile[] = [];
  const undecodable: UndecodableNames = new Map();
  for (const rel of walkTree(managedReal, ['.git'], undecodable)) {
    if (!rel.endsWith('.md') || isBundleOutput(rel)) continue;
    const read = readOuter('managed', managedReal, rel, maxBytes, undecodable, diagnostics);
    if (read !== null) out.push(source('managed', rel, 'managed', 'managed', '', read.bytes, read.realRel, true));
  }
  return out;
}

/**
 * The user layer: the personal files agents read from the home directory, at
 * each format's `home` locations (Claude's ~/.claude/CLAUDE.md and
 * ~/.claude/rules, Codex's ~/.codex AGENTS.override.md else AGENTS.md,
 * Gemini's ~/.gemini/GEMINI.md). A file its shadowing format replaces there is
 * not read.
 */
export function readUserFiles(homeReal: string, maxBytes: number, diagnostics: Diagnostic[]): SourceFile[] {
  const out: SourceFile[] = [];
  const read = new Set<string>();
  const shadowed = new Set<string>();
  const undecodable: UndecodableNames = new Map();
  for (const { rel, format } of userFileCandidates(homeReal, undecodable)) {
    const scope = dirnameOf(rel);
    if (read.has(rel) || shadowed.has(`${format}\0${scope}`)) continue;
    read.add(rel);
    const got = readOuter('user', homeReal, rel, maxBytes, undecodable, diagnostics);
    if (got === null) continue;
    const shadows = formatSpec(format)?.shadows;
    if (shadows) shadowed.add(`${shadows.format}\0${scope}`);
    out.push(source('user', rel, 'user', 'user', '', got.bytes, got.realRel, false));
  }
  return out;
}

/**
 * Each format's home locations in table order; a directory stands for the files below it that the
 * format matches (those with a name that is not UTF-8 are put in `undecodable`, as walkTree does).
 */
function userFileCandidates(homeReal: string, undecodable: UndecodableNames): { rel: string; format: FormatName }[] {
  const walked = new Map<string, string[]>();
  const out: { rel: string; format: FormatName }[] = [];
  for (const spec of FORMATS) {
    for (const loc of spec.home ?? []) {
      if (!loc.endsWith('/')) {
        out.push({ rel: loc, format: spec.name });
        continue;
      }
      let files = walked.get(loc);
      if (!files) {
        const dir = confinedDir(homeReal, loc.slice(0, -1));
        const bad: UndecodableNames = new Map();
        walked.set(loc, (files = (dir ? walkTree(dir, [], bad) : []).filter((r) => !isBundleOutput(r)).map((r) => `${loc}${r}`)));
        for (const [rel, shown] of bad) for (const name of shown) noteUndecodable(undecodable, `${loc}${rel}`, `${loc}${name}`);
      }
      for (const rel of files) if (spec.match(rel) !== null) out.push({ rel, format: spec.name });
    }
  }
  return out;
}

/**
 * `rel` of the managed or user root, read confined to it; null when there is no file to use. What
 * the read reports goes to `diagnostics`, with an RC1001 for each name listed as `rel` that is not
 * UTF-8 (undecodableNames).
 */
function readOuter(root: 'managed' | 'user', rootReal: string, rel: string, maxBytes: number,
  undecodable: UndecodableNames, diagnostics: Diagnostic[]): Extract<ReadOutcome, { ok: true }> | null {
  const read = readConfined(rootReal, rel, sourceId(root, rel), maxBytes);
  pushAll(diagnostics, undecodableNames([...(undecodable.get(rel) ?? [])].map((shown) => sourceId(root, shown))));
  if (read.ok) return read;
  if (!read.missing) diagnostics.push(read.diagnostic);
  return null;
}
