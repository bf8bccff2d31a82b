/**
 * Where `explain` takes its answer from: a verified bundle (this module, all
 * that `explain PATH --bundle DIR` loads) or the work tree (explain-worktree.ts,
 * loaded only when no bundle is named: freshness checks and the compiler).
 */
import { BundleError } from '../../bundle/bundle-error.js';
import { currentBundleDir } from '../../bundle/current-pointer.js';
import { openBundle, type OpenedBundle } from '../../bundle/open-bundle.js';
import { NO_REDACTIONS, type Redactions } from '../../diagnostics/redact.js';
import { explainPath, type Explanation } from '../../report/explain.js';
import { UsageError } from '../../util/errors.js';
import type { Io } from '../io.js';
import { displayPath } from './shared.js';

export interface Answer {
  bundleId: string;
  /** `directory`: the path is a directory in the work tree (a session there reads files below it). */
  explain(path: string, directory?: boolean): Explanation;
  /** Secrets of a fresh compile; a bundle's manifest was redacted when it was built. */
  redactions: Redactions;
  origin: 'bundle' | 'compiled';
  originText: string;
  /** The frozen standing-context text at a path. */
  textFor(path: string): string;
  localNotes(path: string): string[];
}

/**
 * Bundle `dir` — a bundle directory, or a bundles directory (build's `--out`) whose `current`
 * names one — opened and verified (manifest.json and the directory listing; each part when it is
 * read).
 */
export function openVerified(dir: string): OpenedBundle {
  return verified(() => openBundle(currentBundleDir(dir) ?? dir), dir);
}

/** The answers of an opened bundle: only the parts a path needs are read, each verified as it is (a tampered one refuses when it is read). */
export function bundleAnswer(bundle: OpenedBundle, io: Io): Answer {
  const dir = bundle.dir;
  return {
    bundleId: bundle.bundleId, explain: (path, directory) => verified(() => explainPath(bundle.lookup, path, directory), dir),
    redactions: NO_REDACTIONS, origin: 'bundle', originText: `from bundle ${displayPath(io, dir)}`,
    textFor: (path) => verified(() => bundle.contextFor(path).text, dir), localNotes: () => [],
  };
}

/** A bundle that fails verification is a usage failure of this command (exit 2), never a crash. */
export function verified<T>(read: () => T, dir: string): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof BundleError) throw new UsageError(`cannot use bundle ${dir}: ${e.message} (${e.code})`);
    throw e;
  }
}
