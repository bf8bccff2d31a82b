/**
 * The data that flows between pipeline stages. Every stage takes and returns
 * plain values of these shapes, so each can be tested on inline inputs.
 */
import type { Diagnostic } from './diagnostics/diagnostic.js';

/** Authority layers, highest first. */
export type Layer = 'managed' | 'repo' | 'path' | 'local' | 'user';

/** Which root a source file was read from. */
export type Root = 'repo' | 'managed' | 'user';

/**
 * How a source takes effect.
 * - standing: injected at session start for every path under its scope;
 * - attached: injected lazily when a file matching its globs is touched;
 * - requested: offered to the agent by description only (Cursor);
 * - manual: never loaded automatically (Cursor manual rules, Copilot files without applyTo);
 * - import: loaded because another source imports it.
 */
export type Activation = 'standing' | 'attached' | 'requested' | 'manual' | 'import';

/** The instruction-file formats rulec knows (see src/formats/formats.ts). */
export type FormatName =
  | 'agents-override'
  | 'agents'
  | 'claude'
  | 'claude-dot'
  | 'gemini'
  | 'copilot'
  | 'cursorrules'
  | 'claude-rule'
  | 'cursor-rule'
  | 'copilot-instructions'
  | 'claude-local'
  | 'claude-rule-local'
  | 'managed'
  | 'user'
  | 'import';

/** One file as discovery read it. The only place raw bytes enter the pipeline. */
export interface SourceFile {
  /**
   * Stable key, derived from root and rel by sourceId() (src/util/source-id.ts):
   * the repo-relative path, or `managed://<rel>` / `user://<rel>`. Never parse it:
   * `root` and `rel` are authoritative.
   */
  id: string;
  /** Path relative to its root, posix. */
  rel: string;
  root: Root;
  format: FormatName;
  layer: Layer;
  /** Directory whose subtree the file governs ('' = repo root). */
  scope: string;
  bytes: Uint8Array;
  /** Set when the path leads through a symlink (the file or a directory on its path): the id of the real file. */
  linkTarget?: string;
  /** True when git tracks the file (false in a non-git walk or for ignored local files). */
  tracked: boolean;
}

export type { Position, Span } from './diagnostics/span.js';
import type { Span } from './diagnostics/span.js';

export interface ImportRef {
  /** The token after `@`, as written. */
  target: string;
  span: Span;
}

/** A source file after parsing: canonical text plus structure, with positions. */
export interface ParsedDoc {
  id: string;
  /** UTF-8 decoded, BOM stripped, CRLF/CR normalised to LF. Includes frontmatter. */
  text: string;
  /** The text after the frontmatter block (what gets rendered). */
  body: string;
  /** 1-based line in `text` where `body` starts. */
  bodyLine: number;
  frontmatter: Record<string, unknown> | null;
  /** Positions of top-level frontmatter keys, for diagnostics. */
  frontmatterKeys: Record<string, Span>;
  imports: ImportRef[];
}

/** An applied source inside a variant or attachment, in render order. */
export interface SourceRef {
  id: string;
  /** Why it applies: the scope directory, glob, or importing source. */
  reason: string;
  /** The source that imported this one, when activation is import. */
  importedBy?: string;
}

export interface Variant {
  id: string;
  sources: SourceRef[];
  text: string;
  bytes: number;
  tokens: number;
  sha256: string;
}

export interface Attachment {
  id: string;
  /** The glob-scoped source and its imports. */
  sources: SourceRef[];
  globs: string[];
  text: string;
  bytes: number;
  tokens: number;
  sha256: string;
}

export interface StageResult<T> {
  value: T;
  diagnostics: Diagnostic[];
}
