/**
 * `rulec explain PATH --profile NAME --text` against the captured requests:
 * the same replay as conformance.test.ts, but through the CLI's own view of
 * a real work tree (discovery, symlinks followed on disk, the home directory)
 * rather than the test's fixture view. Runs whose text depends on the file
 * system's readdir order of several rules, and Qwen (whose paths are
 * relative to a five-deep capture directory), are left to conformance.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { explainProfile } from '../../src/cli/commands/explain-profile.js';
import { FIXTURES } from './repo-view.js';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rulec-cli-conf-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const PROFILE_OF: Record<string, string> = { claude: 'claude-code', gemini: 'gemini-cli', copilot: 'copilot-cli', codex: 'codex' };
const CASES: [agent: string, fixture: string, run: string][] = [
  ['claude', 'r-claude-at-agents', 'cwd=.'], ['claude', 'r-claude-at-agents', 'cwd=packages/x'], ['copilot', 'r-claude-at-agents', 'cwd=packages/x'],
  ['claude', 'o-at-imports', 'cwd=.'], ['copilot', 'o-at-imports', 'cwd=packages/api'], ['gemini', 'o-at-imports', 'cwd=packages/api'],
  ['claude', 't-import-places', 'cwd=.'], ['copilot', 't-import-places', 'cwd=packages/crlf'], ['gemini', 's-import-tokens', 'cwd=.'],
  ['copilot', 'q-symlinks', 'cwd=packages/web'], ['codex', 'q-symlinks', 'cwd=.agents/skills'], ['gemini', 'q-symlinks', 'cwd=. [context_all]'],
  ['copilot', 'p-copilot-files', 'cwd=a/b/c'], ['claude', 'u-blank-files', 'cwd=packages/api'], ['claude', 'i-imports', 'cwd=packages/api'],
];

/** A copy of the fixture as the agent saw it: `_gitignore` restored, links kept; and its HOME. */
function materialise(fixture: string): { repo: string; home: string } {
  const repo = path.join(scratch, fixture);
  const home = path.join(scratch, `${fixture}.home`);
  if (!fs.existsSync(repo)) {
    fs.cpSync(path.join(FIXTURES, fixture), repo, { recursive: true, verbatimSymlinks: true });
    if (fs.existsSync(path.join(repo, '_gitignore'))) fs.renameSync(path.join(repo, '_gitignore'), path.join(repo, '.gitignore'));
    fs.mkdirSync(home, { recursive: true });
    if (fs.existsSync(path.join(FIXTURES, `${fixture}.home`))) fs.cpSync(path.join(FIXTURES, `${fixture}.home`), home, { recursive: true });
  }
  return { repo, home };
}

describe('explain --profile --text replays the captures', () => {
  it.each(CASES)('%s %s %s', async (agent, fixture, key) => {
    const doc = JSON.parse(fs.readFileSync(path.join(HERE, 'expected', agent, `${fixture}.json`), 'utf8'));
    const run = doc.runs[key];
    const { repo, home } = materialise(fixture);
    const env = run.oracle_env ?? {};
    const options = env.ORACLE_GEMINI_CONTEXT_FILENAME ? [`context_file_names=${env.ORACLE_GEMINI_CONTEXT_FILENAME}`] : [];
    let out = '';
    const io = { out: (t: string) => { out += t; }, err: () => {}, cwd: repo };
    await explainProfile(io, { repoDir: repo }, { name: PROFILE_OF[agent]!, path: run.workdir === '.' ? '' : run.workdir, home, options, format: 'text', text: true });
    const shown = out.split(`${home}`).join('<HOME>').split(`${repo}/`).join('<FIXTURE>/').split(repo).join('<FIXTURE>');
    expect(shown).toBe(run.instruction_text);
  });
});
