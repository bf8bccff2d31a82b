/**
 * Read the files that `@` imports name but discovery did not list as
 * instruction files (I/O). Breadth-first from the instruction files, at most
 * `maxDepth` hops, only inside the root of the importing file, and at most
 * `maxFiles` files in all: past that cap nothing more is read and one RC2106
 * says where following stopped. The resolver later decides what loads; this
 * only makes the bytes available. Its inputs are left as they are: the files
 * and documents it read are its result, and withImports() appends them to
 * discovery's.
 */
import type { ParsedDoc, Root, SourceFile, StageResult } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { importCandidates, importTarget, type ImportRoots } from '../parse/import-target.js';
import { pushAll } from '../util/push-all.js';
import { expandsImports } from '../formats/formats.js';
import type { Discovered } from './discover.js';
import { source } from './source-file.js';
import { dirtyIds } from './dirty.js';
import { excluder, type Exclusions } from './exclusions.js';
import { isBundleOutput } from './output-dir.js';
import type { ReadOutcome } from '../confined/read-confined.js';
import { repoReader, type RepoReader } from './repo-reader.js';
import { importRead, readOf, type ImportRead, type Readers } from './import-reads.js';

export interface FollowContext {
  roots: ImportRoots & { repoReal: string; managedReal: string | null };
  maxDepth: number;
  /** Files read through imports in the whole build (policy imports.max_files). */
  maxFiles: number;
  maxBytes: number;
  /** Paths that are never inputs (discovery's record: policy excludes, the bundle output directory). */
  exclusions: Exclusions;
  parse(file: SourceFile): StageResult<ParsedDoc>;
  /** How repository files are read (the work tree or a commit's tree); default: the work tree at roots.repoReal. */
  readRepo?: RepoReader;
}

export interface Followed {
  /** The files read through imports, in the order they were read, and their parsed documents. */
  files: SourceFile[];
  docs: Map<string, ParsedDoc>;
  /** True when the file cap stopped following: imports not read are then not "missing". */
  capped: boolean;
  /** Ids whose read was refused (outside the root, not a regular file …), reported at the import. */
  refused: Set<string>;
  /** Every read made, in order, with its answer (import-reads.ts). */
  reads: ImportRead[];
}

export function followImports(files: readonly SourceFile[], docs: ReadonlyMap<string, ParsedDoc>, ctx: FollowContext): StageResult<Followed> {
  const diagnostics: Diagnostic[] = [];
  const refused = new Set<string>();
  const absent = new Set<string>();
  const known = new Set(files.map((f) => f.id));
  const out: Followed = { files: [], docs: new Map(), capped: false, refused, reads: [] };
  const isExcluded = excluder(ctx.exclusions);
  // One reader for the whole following: it resolves each directory once (repo-reader.ts).
  const repoReal = ctx.roots.repoReal;
  const readRepo = ctx.readRepo ?? (repoReal ? repoReader(repoReal, null) : (): ReadOutcome => ({ ok: false, missing: true }));
  const readers: Readers = { readRepo, managedReal: ctx.roots.managedReal, maxBytes: ctx.maxBytes, isExcluded };
  let frontier = files.slice();
  // One level past the limit, so the resolver can tell "too deep" from "missing".
  for (let depth = 0; depth <= ctx.maxDepth && frontier.length > 0; depth++) {
    const next: SourceFile[] = [];
    for (const importer of frontier) {
      const doc = docs.get(importer.id) ?? out.docs.get(importer.id);
      if (!doc || (depth === 0 && !expandsImports(importer.format))) continue;
      for (const imp of doc.imports) {
        for (const candidate of importCandidates(imp.target)) {
          const t = importTarget(importer, candidate, ctx.roots);
          if (t.kind !== 'file') continue;
          if (known.has(t.id)) break;
          if (out.files.length >= ctx.maxFiles) {
            diagnostics.push(diag('RC2106', { file: importer.id, range: imp.span,
              message: `import @${imp.target} not followed: this build already read ${ctx.maxFiles} files through imports (imports.max_files)` }));
            return { value: { ...out, capped: true }, diagnostics };
          }
          if (refused.has(t.id) || absent.has(t.id)) continue;
          const got = readImport(t.root, t.rel, t.id, importer, ctx, readers, out.reads);
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
          known.add(file.id);
          out.files.push(file);
          const parsed = ctx.parse(file);
          out.docs.set(file.id, parsed.value);
          pushAll(diagnostics, parsed.diagnostics);
          next.push(file);
          break;
        }
      }
    }
    frontier = next;
  }
  return { value: out, diagnostics };
}

/**
 * Discovery's result with the files read through imports appended (every file
 * read), and its dirty record extended to them: an edited import makes the
 * build dirty as an edited instruction file does.
 */
export function withImports(discovered: Discovered, followed: Followed): Discovered {
  if (followed.files.length === 0) return discovered;
  const dirty = [...discovered.dirty, ...dirtyIds(followed.files, discovered.head)];
  const git = discovered.git && { ...discovered.git, dirty: dirty.length > 0 };
  return { ...discovered, files: [...discovered.files, ...followed.files], dirty, git };
}

function readImport(root: Root, rel: string, id: string, importer: SourceFile, ctx: FollowContext,
  readers: Readers, reads: ImportRead[]): SourceFile | { diagnostic: Diagnostic } | null {
  // User files are personal: explain shows them, but nothing they import is read.
  if (root === 'user') return null;
  const rootReal = root === 'managed' ? ctx.roots.managedReal : ctx.roots.repoReal;
  if (!rootReal || (root === 'repo' ? readers.isExcluded(rel) : isBundleOutput(rel))) return null;
  const read = readOf(root, rel, id, readers);
  reads.push(importRead(root, rel, id, read));
  if (!read.ok) return read.missing ? null : { diagnostic: read.diagnostic };
  return source(root, rel, 'import', importer.layer, importer.scope, read.bytes, read.realRel, importer.tracked);
}
