/**
 * readInputs(): every file a build reads, parsed — the I/O half of compile().
 *
 * 1. discover() lists and reads the repository's instruction files and the
 *    managed and user files (discover.ts).
 * 2. Parse each of them (parseDocs).
 * 3. Follow their `@` imports, reading and parsing the files they name
 *    (follow-imports.ts), through the same reader as discovery (the work tree
 *    or a commit's tree) and the same exclusions.
 * 4. Append the imported files to discovery's result (withImports): its
 *    `files` is every file read, and its dirty record covers them all.
 * Nothing here is mutated after it is returned; the result is plain data.
 */
import type { ParsedDoc, StageResult } from '../types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { OnStage } from '../compile-stages.js';
import type { ImportContext } from '../resolve/expand-imports.js';
import { parseDoc } from '../parse/parse-doc.js';
import { parseDocs } from '../parse/parse-docs.js';
import { toPosix } from '../util/posix-path.js';
import { pushAll } from '../util/push-all.js';
import { discover, type Discovered, type DiscoverOptions } from './discover.js';
import { followImports, withImports, type FollowContext } from './follow-imports.js';
import { repoReader } from './repo-reader.js';
import type { ImportRead } from './import-reads.js';

export interface Inputs {
  /** Discovery's result, every file read through imports included. */
  discovered: Discovered;
  /** The parsed document of every file, by source id. */
  docs: Map<string, ParsedDoc>;
  /** What the resolver needs to expand imports as they were followed. */
  imports: Omit<ImportContext, 'docs' | 'places'>;
  /** Every read import following made, with its answer (import-reads.ts). */
  importReads: ImportRead[];
}

export async function readInputs(options: DiscoverOptions, onStage?: OnStage): Promise<StageResult<Inputs>> {
  return followInputs(await discover(options), options, onStage);
}

/** Steps 2–4, on discovery's result: what readInputs does after discover(). */
export function followInputs(found: StageResult<Discovered>, options: DiscoverOptions, onStage?: OnStage): StageResult<Inputs> {
  const diagnostics: Diagnostic[] = [];
  pushAll(diagnostics, found.diagnostics);
  onStage?.('parse', found.value.files.length);
  const parsed = parseDocs(found.value.files);
  pushAll(diagnostics, parsed.diagnostics);
  const { policy } = options;
  const roots = importRoots(found.value);
  const followed = followImports(found.value.files, parsed.value, {
    roots, maxDepth: policy.imports.max_depth, maxFiles: policy.imports.max_files, maxBytes: policy.discover.max_file_bytes,
    exclusions: found.value.exclusions, parse: parseDoc, readRepo: repoReader(found.value.rootReal, options.source ?? null),
  });
  pushAll(diagnostics, followed.diagnostics);
  const { docs, capped, refused, reads } = followed.value;
  return {
    value: {
      discovered: withImports(found.value, followed.value),
      docs: new Map([...parsed.value, ...docs]),
      imports: { roots, maxDepth: policy.imports.max_depth, capped, refused },
      importReads: reads,
    },
    diagnostics,
  };
}

/** The roots imports are resolved against: posix for ids, real for reading. */
export function importRoots(d: Pick<Discovered, 'rootReal' | 'managedReal'>): FollowContext['roots'] {
  return {
    repo: toPosix(d.rootReal),
    repoReal: d.rootReal,
    managedReal: d.managedReal,
    ...(d.managedReal ? { managed: toPosix(d.managedReal) } : {}),
  };
}
