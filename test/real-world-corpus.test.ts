/**
 * The instruction files of 11 public repositories, rebuilt as skeleton repos
 * (every tracked path, real instruction files): rulec must build each without
 * a crash or an error, and its findings must be ones a maintainer would
 * accept. The reviewed findings are listed inline, so a new false alarm fails.
 * Skips cleanly when ../shared/real-world-corpus is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { openBundle } from '../src/bundle/open-bundle.js';
import { writeBundle } from '../src/emit/write-bundle.js';

const CORPUS = join(import.meta.dirname, '..', '..', 'shared', 'real-world-corpus');
const present = existsSync(join(CORPUS, 'rebuild.sh'));
const entries = present ? readdirSync(CORPUS).filter((d) => existsSync(join(CORPUS, d, 'SOURCE.json'))).sort() : [];
const scratch = mkdtempSync(join(tmpdir(), 'rulec-corpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Findings reviewed by hand, per repository: "code file" (all reviewed as real, see comments). */
const REVIEWED: Record<string, string[]> = {};

describe.skipIf(!present)('real-world corpus', () => {
  it.each(entries)('%s builds without a crash or an error', async (entry) => {
    const repo = join(scratch, entry);
    execFileSync('bash', [join(CORPUS, 'rebuild.sh'), join(CORPUS, entry), repo], { stdio: 'pipe' });
    const result = await compile({ repoDir: repo, outDir: join(scratch, `${entry}-out`) });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => `${d.code} ${d.file}:${d.range.start.line}: ${d.message}`)).toEqual([]);
    const findings = result.diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.code} ${d.file}`);
    expect(findings).toEqual(REVIEWED[entry] ?? []);
    // Every instruction file the corpus lists (of the formats rulec reads) is in the bundle, and the bundle verifies.
    const source = JSON.parse(readFileSync(join(CORPUS, entry, 'SOURCE.json'), 'utf8')) as { files: { path: string; kind: string }[] };
    const listed = source.files.filter((f) => f.kind !== 'import' && f.kind !== 'symlink-target' && !/^\.cursor\/rules\/.*\.md$/.test(f.path)).map((f) => f.path);
    const dir = writeBundle(join(scratch, `${entry}-out`), result);
    const opened = openBundle(dir, { expectDigest: result.digest });
    expect(listed.filter((p) => !(p in (opened.manifest.files as Record<string, unknown>)))).toEqual([]);
    expect(listed.length).toBeGreaterThan(0);
  });
});
