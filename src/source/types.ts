/**
 * Where file bytes come from: the work tree, or a commit's tree read from git
 * objects. Every read is confined to its root and answers in one shape.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export type SourceRead =
  | { ok: true; bytes: Uint8Array; /** Posix path of the real file below the root (differs from the path asked for through symlinks). */ realRel: string }
  | { ok: false; missing: true }
  | { ok: false; missing: false; diagnostic: Diagnostic };
