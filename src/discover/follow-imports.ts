/**
 * Read the files that `@` imports name but discovery did not list as
 * instruction files (I/O). Breadth-first from the instruction files, at most
 * `maxDepth` hops, only inside the root of the importing file. The resolver
 * later decides what loads; this only makes the bytes available.
 */
import type { ParsedDoc, SourceFile } from '../types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { importCandidates, importTarget, type ImportRoots } from '../parse/import-target.js';
import { expandsImports } from './formats.js';
import { source } from './discover.js';
import { readUnderRoot } from './read-source.js';

export interface FollowContext {
  roots: ImportRoots & { repoReal: string; managedReal: string | null };
  maxDepth: number;
  maxBytes: number;
  /** Paths that are never inputs (policy excludes, the bundle output directory). */
  isExcluded(path: string): boolean;
  parse(file: SourceFile): { value: ParsedDoc; diagnostics: Diagnostic[] };
  /** Read a repository file (discovery's readRepo: the work tree or a commit's tree). */
  readRepo?(rel: string, id: string, maxBytes: number): ReturnType<typeof readUnderRoot>;
}

export function followImports(files: SourceFile[], docs: Map<string, ParsedDoc>, ctx: FollowContext): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const byId = new Map(files.map((f) => [f.id, f]));
  let frontier = files.map((f) => f.id);
  // One level past the limit, so the resolver can tell "too deep" from "missing".
  for (let depth = 0; depth <= ctx.maxDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      const doc = docs.get(id);
      const importer = byId.get(id);
      if (!doc || !importer || (depth === 0 && !expandsImports(id))) continue;
      for (const imp of doc.imports) {
        for (const candidate of importCandidates(imp.target)) {
          const t = importTarget(id, candidate, ctx.roots);
          if (t.kind !== 'file') continue;
          if (byId.has(t.id)) break;
          const file = readImport(t.id, importer, ctx, diagnostics);
          if (!file) continue;
          byId.set(file.id, file);
          files.push(file);
          const parsed = ctx.parse(file);
          docs.set(file.id, parsed.value);
          diagnostics.push(...parsed.diagnostics);
          next.push(file.id);
          break;
        }
      }
    }
    frontier = next;
  }
  return diagnostics;
}

function readImport(id: string, importer: SourceFile, ctx: FollowContext, diagnostics: Diagnostic[]): SourceFile | null {
  const managed = id.startsWith('managed:');
  if (id.startsWith('user:')) return null;
  const rel = managed ? id.slice('managed:'.length) : id;
  const rootReal = managed ? ctx.roots.managedReal : ctx.roots.repoReal;
  if (!rootReal || (!managed && ctx.isExcluded(rel))) return null;
  const read = !managed && ctx.readRepo ? ctx.readRepo(rel, id, ctx.maxBytes) : readUnderRoot(rootReal, rel, id, ctx.maxBytes, managed ? 'managed:' : '');
  if (!read.ok) {
    if (!read.missing) diagnostics.push(read.diagnostic);
    return null;
  }
  return source(id, rel, managed ? 'managed' : 'repo', 'import', importer.layer, importer.scope, read.bytes, read.linkTarget, importer.tracked);
}
