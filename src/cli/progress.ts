/**
 * The progress line of a long build: when stderr is a terminal (Io.status)
 * and the build has run for about a second, one line on stderr — the stage,
 * its number and a count — rewritten as the stages pass and erased when the
 * build ends. Nothing on a non-terminal, with --quiet, or when the report on
 * stdout is JSON (a script reads it; its stderr is often a log).
 *
 * Hand-written rather than cli-progress: the stages have counts, not a known
 * total of work, so there is no bar to draw — one line and a timer.
 */
import { COMPILE_STAGES, type CompileStage } from '../compile-stages.js';
import type { Io } from './io.js';

/** The stages a build reports, in order (compile's, then writing the bundle). */
export const BUILD_STAGES = [...COMPILE_STAGES, 'write'] as const;
export type BuildStage = CompileStage | 'write';

const LABEL: Record<BuildStage, (n: string) => string> = {
  discover: () => 'discovering instruction files',
  parse: (n) => `parsing ${n} instruction files`,
  resolve: (n) => `resolving the context of ${n} paths`,
  conflicts: (n) => `detecting conflicts across ${n} sources`,
  count: (n) => `counting tokens in ${n} blocks`,
  render: (n) => `rendering ${n} contexts`,
  write: (n) => `writing the bundle (${n} contexts)`,
};

/** Shown only once a build has run this long: a fast build prints nothing at all. */
export const PROGRESS_DELAY_MS = 1000;

export interface Progress {
  stage(stage: BuildStage, count?: number): void;
  /** Erase the line (when one was shown) and stop the timer. */
  end(): void;
}

const SILENT: Progress = { stage: () => undefined, end: () => undefined };

export function progressFor(io: Io, options: { command: string; quiet: boolean; json: boolean }, delayMs = PROGRESS_DELAY_MS): Progress {
  const status = io.status;
  if (status === undefined || options.quiet || options.json) return SILENT;
  let current: string | null = null;
  let shown = false;
  const show = (): void => {
    if (current === null) return;
    shown = true;
    status(`rulec ${options.command}: ${current}…`);
  };
  const timer = setTimeout(show, delayMs);
  timer.unref();
  return {
    stage(stage, count) {
      const i = BUILD_STAGES.indexOf(stage);
      current = `${i + 1}/${BUILD_STAGES.length} ${LABEL[stage]((count ?? 0).toLocaleString('en-US'))}`;
      if (shown) show();
    },
    end() {
      clearTimeout(timer);
      if (shown) status('');
      shown = false;
      current = null;
    },
  };
}
