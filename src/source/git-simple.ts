/**
 * simple-git for a one-off read-only query (the remote URL of a git-ref source,
 * repo-source.ts). Loaded only by the paths that compile a commit's tree: a
 * build of the work tree asks all its questions through one shell
 * (git-batch.ts), and the no-change check loads neither.
 */
import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git';
import { queryEnv } from './git-env.js';

/**
 * simple-git checks an explicit environment for variables that let git run another program
 * (EDITOR, PAGER, GIT_SSH, GIT_CONFIG_* …) and refuses them unless allowed. rulec passes the
 * caller's own environment, which git would inherit anyway, to fixed read-only queries of its own,
 * so every category is allowed.
 */
const INHERITED: SimpleGitOptions['unsafe'] = {
  allowUnsafeEditor: true, allowUnsafeAskPass: true, allowUnsafeConfigPaths: true, allowUnsafeConfigEnvCount: true,
  allowUnsafeDiffExternal: true, allowUnsafePager: true, allowUnsafeGitProxy: true, allowUnsafeTemplateDir: true,
  allowUnsafeSshCommand: true, allowUnsafeAlias: true, allowUnsafeFsMonitor: true, allowUnsafeHooksPath: true,
  allowUnsafeCredentialHelper: true, allowUnsafeDiffTextConv: true, allowUnsafeFilter: true, allowUnsafeGpgProgram: true,
  allowUnsafeMergeDriver: true, allowUnsafeProtocolOverride: true, allowUnsafePack: true,
};

/** simple-git in `dir`, with the caller's environment and rulec's pins (queryEnv). */
function gitAt(dir: string): SimpleGit {
  return simpleGit({ baseDir: dir, binary: 'git', maxConcurrentProcesses: 6, trimmed: false, unsafe: INHERITED }).env(queryEnv());
}

/** `git config --get KEY` in `dir`: its value, or '' when it is unset (or git cannot answer). */
export async function configValue(dir: string, key: string): Promise<string> {
  return (await gitAt(dir).raw(['-c', 'core.quotePath=false', 'config', '--get', key]).catch(() => '')).trim();
}
