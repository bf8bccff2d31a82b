/**
 * Read the files that `@` imports name but discovery did not list as
 * instruction files (I/O). Breadth-first from the instruction files, at most
 * `maxDepth` hops, only inside the root of the importing file, and at most
 * `maxFiles` files in all: past that cap nothing more is read and one RC2106
 * says where following stopped. The resolver later decides what loads; this
 * only makes the bytes available.
 */
import type { ParsedDoc, SourceFile } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { importCandidates, importTarget, type ImportRoots } from '../parse/import-target.js';
import { pushAll } from '../util/push-all.js';
import type { Root } from '../types.js';
import { expandsImports } from './formats.js';
import { source } from './discover.js';
import { isBundleOutput } from './output-dir.js';
import { readConfined, type ReadOutcome } from './read-confined.js';

export interface FollowContext {
  roots: ImportRoots & { repoReal: string; managedReal: string | null };
  maxDepth: number;
  /** Files read through imports in the whole build (policy imports.max_files). */
  maxFiles: number;
  maxBytes: number;
  /** Paths that are never inputs (policy excludes, the bundle output directory). */
  isExcluded(path: string): boolean;
  parse(file: SourceFile): { value: ParsedDoc; diagnostics: Diagnostic[] };
  /** Read a repository file (discovery's readRepo: the work tree or a commit's tree). */
  readRepo?(rel: string, id: string, maxBytes: number): ReadOutcome;
}

export interface Followed {
  diagnostics: Diagnostic[];
  /** True when the file cap stopped following: imports not read are then not "missing". */
  capped: boolean;
  /** Ids whose read was refused (outside the root, not a regular file …), reported at the import. */
  refused: Set<string>;
}

export function followImports(files: SourceFile[], docs: Map<string, ParsedDoc>, ctx: FollowContext): Followed {
  const diagnostics: Diagnostic[] = [];
  const refused = new Set<string>();
  const absent = new Set<string>();
  const byId = new Map(files.map((f) => [f.id, f]));
  let read = 0;
  let frontier = files.slice();
  // One level past the limit, so the resolver can tell "too deep" from "missing".
  for (let depth = 0; depth <= ctx.maxDepth && frontier.length > 0; depth++) {
    const next: SourceFile[] = [];
    for (const importer of frontier) {
      const doc = docs.get(importer.id);
      if (!doc || (depth === 0 && !expandsImports(importer.format))) continue;
      for (const imp of doc.imports) {
        for (const candidate of importCandidates(imp.target)) {
          const t = importTarget(importer, candidate, ctx.roots);
          if (t.kind !== 'file') continue;
          if (byId.has(t.id)) break;
          if (read >= ctx.maxFiles) {
            diagnostics.push(diag('RC2106', { file: importer.id, range: imp.span,
              message: `import @${imp.target} not followed: this build already read ${ctx.maxFiles} files through imports (imports.max_files)` }));
            return { diagnostics, capped: true, refused };
          }
          if (refused.has(t.id) || absent.has(t.id)) continue;
          const got = readImport(t.root, t.rel, t.id, importer, ctx);
          if (got === null) {
            absent.add(t.id); // a file named a thousand times is looked for once
            continue;
          }
          if ('diagnostic' in got) {
            // Said where the author can act on it: at the import, not at a path that only the import names.
            refused.add(t.id);
            diagnostics.push({ ...got.diagnostic, file: importer.id, range: imp.span, message: `import @${imp.target}: ${got.diagnostic.message}` });
            continue;
          }
          const file = got;
          read++;
          byId.set(file.id, file);
          files.push(file);
          const parsed = ctx.parse(file);
          docs.set(file.id, parsed.value);
          pushAll(diagnostics, parsed.diagnostics);
          next.push(file);
          break;
        }
      }
    }
    frontier = next;
  }
  return { diagnostics, capped: false, refused };
}

function readImport(root: Root, rel: string, id: string, importer: SourceFile, ctx: FollowContext): SourceFile | { diagnostic: Diagnostic } | null {
  // User files are personal: explain shows them, but nothing they import is read.
  if (root === 'user') return null;
  const rootReal = root === 'managed' ? ctx.roots.managedReal : ctx.roots.repoReal;
  if (!rootReal || (root === 'repo' ? ctx.isExcluded(rel) : isBundleOutput(rel))) return null;
  const read = root === 'repo' && ctx.readRepo ? ctx.readRepo(rel, id, ctx.maxBytes) : readConfined(rootReal, rel, id, ctx.maxBytes);
  if (!read.ok) return read.missing ? null : { diagnostic: read.diagnostic };
  return source(root, rel, 'import', importer.layer, importer.scope, read.bytes, read.realRel, importer.tracked);
}
