/**
 * The shapes every agent profile shares. A profile is a pure function of a
 * RepoView (bytes in, no fs/process/clock), a working directory and the
 * agent's own options; it returns the exact text the agent would inject and
 * an account of every file it considered.
 */

export interface RepoView {
  /** Sorted repo-relative posix paths of the work tree that the agent could see (files only). */
  paths: readonly string[];
  /** Raw bytes of a repo-relative file (also files not in `paths`, e.g. an import target), or undefined when absent/unreadable/outside. */
  read(path: string): Uint8Array | undefined;
  /** Files under the user's home the agent reads (e.g. '.codex/AGENTS.md', '.claude/CLAUDE.md'), raw bytes; undefined when absent. */
  readHome(rel: string): Uint8Array | undefined;
  /** How the repo root prints in framing ("Contents of <root>/CLAUDE.md", "# AGENTS.md instructions for <cwd>"), e.g. '<FIXTURE>' in tests or the absolute path in the CLI. */
  rootDisplay: string;
  homeDisplay: string;
  /**
   * Sorted home-relative paths of files the agent may list (only directories agents scan are needed:
   * '.claude/rules/**'). Optional: without it, listed home directories count as empty.
   */
  homePaths?: readonly string[];
  /**
   * Where a repo path leads after following every symbolic link (repo-relative; the path itself
   * when no link is involved), or undefined when it leads nowhere inside the repository. Agents
   * that recognise one file reached twice (Claude Code, Gemini CLI, Copilot CLI) use it.
   * Optional: without it every path is its own file.
   */
  realPath?(path: string): string | undefined;
  /**
   * The entries of a directory in the order the file system lists them (readdir order: hashed on
   * ext4, not sorted), symbolic links followed (`isDir` of the target). `dir` is repo-relative
   * ('' = root) or `~/`-prefixed for the home directory. Claude Code loads `.claude/rules` in this
   * order. Optional, and never given to a build (bundles must not depend on readdir order):
   * without it profiles walk `paths` in name order.
   */
  listDir?(dir: string): readonly DirEntry[] | undefined;
}

export interface DirEntry {
  name: string;
  isDir: boolean;
}

export type FileOrigin = 'project' | 'global' | 'managed' | 'import';

export interface ProfileFile {
  /** Repo-relative path, or `~/<rel>` for a file under the user's home. */
  path: string;
  origin: FileOrigin;
  /** Size of the file on disk. */
  bytes: number;
  /** File bytes that reached the injected text (0 when skipped). */
  keptBytes: number;
  /** Tokens (o200k_base) of the text this file contributes after the agent's transforms. */
  tokens: number;
  /** Why the agent looks at this file (its selection rule). */
  reason: string;
  /** For an import: the file whose `@path` pulled it in. */
  importedBy?: string;
  /** Set when the agent's budget cut the file: byte offset of the cut and the bytes lost after it. */
  cut?: { offset: number; bytesLost: number };
  /** Set when the file contributes nothing, with the agent's reason (see SKIP_* prefixes). */
  skipped?: string;
}

export interface ProfileResult {
  profile: string;
  agentVersion: string;
  /** Repo-relative working directory ('' = root). */
  cwd: string;
  /** Every file considered, in the agent's load order; skipped files sit where they would have loaded. */
  files: ProfileFile[];
  /** The exact instruction text the agent injects, framing included ('' when it injects nothing). */
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  tokens: number;
  /** True when a budget cut or dropped any file. */
  truncated: boolean;
  notes: string[];
  /** The agent's size budget when it has one (Codex: project_doc_max_bytes), and how much of it the loaded files use. */
  budget?: { unit: 'bytes'; limit: number; used: number };
}

export interface AgentProfile {
  /** Profile name used on the command line and in policy (`codex`, `claude-code`, …). */
  name: string;
  /** Display name of the agent ("Codex"). */
  agent: string;
  /** The agent release the profile was checked against. */
  agentVersion: string;
  summary: string;
  load(view: RepoView, cwd: string, options: Record<string, unknown>): ProfileResult;
}

/** `skipped` prefixes that mean a budget removed text the agent would otherwise load. */
export const SKIP_BUDGET = 'budget exhausted';
/** `skipped` prefix for files that load later (on a file touch), not at session start. */
export const SKIP_LAZY = 'lazy';
