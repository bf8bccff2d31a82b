/**
 * Conformance: every run the real agents were observed doing (the oracle's
 * expected-sample, copied to expected-sample/, and rulec's own captures in
 * expected/) is replayed through the matching profile; the instruction text
 * must be identical, byte for byte, with the fixture root shown as <FIXTURE>.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { profileByName } from '../../src/profiles/registry.js';
import { FIXTURES, fixtureView } from './repo-view.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Oracle agent name → rulec profile name. */
const PROFILE_OF: Record<string, string> = { codex: 'codex', claude: 'claude-code', gemini: 'gemini-cli', copilot: 'copilot-cli', qwen: 'qwen-code' };

interface Run {
  workdir: string; extra_args: string[]; oracle_env?: Record<string, string>; instruction_text: string;
  /** readdir order of the `.claude/rules` directories the agent saw (capture.mjs). */
  listing?: Record<string, string[]>;
}
interface Expected { agent: string; fixture: string; agent_version: string; runs: Record<string, Run> }

/** Agent flags and oracle settings → profile options. */
function optionsOf(agent: string, run: Run): Record<string, unknown> {
  const opts: Record<string, unknown> = {};
  const args = run.extra_args ?? [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '-c') continue;
    const [k, v] = (args[i + 1] ?? '').split(/=(.*)/s);
    if (k === 'project_doc_max_bytes') opts.project_doc_max_bytes = Number(v);
    else if (k === 'project_doc_fallback_filenames') opts.fallback_filenames = JSON.parse(v ?? '[]');
  }
  const env = run.oracle_env ?? {};
  if (env.ORACLE_GEMINI_CONTEXT_FILENAME) opts.context_file_names = JSON.parse(env.ORACLE_GEMINI_CONTEXT_FILENAME);
  if (env.ORACLE_CLAUDE_APPROVE_EXTERNAL === '1') opts.approve_external_imports = true;
  return opts;
}

/**
 * The oracle ran fixtures at a path five components deep with HOME elsewhere
 * (Qwen prints paths relative to cwd, so the depth shows); the view gets a
 * root that deep and the text is normalised as extract.mjs does it.
 */
const ROOT = '/q1/q2/q3/q4/fixture';
const HOME = '/qhome/oracle';
function normalise(text: string): string {
  return text.split(`${ROOT}/`).join('<FIXTURE>/').split(ROOT).join('<FIXTURE>')
    .split('/q1/q2/q3/q4/').join('<FIXTURES>/').split(HOME).join('<HOME>');
}

function load(dir: string): Expected[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).sort().flatMap((agent) =>
    fs.readdirSync(path.join(dir, agent)).filter((f) => f.endsWith('.json')).sort()
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, agent, f), 'utf8')) as Expected));
}

for (const [label, dir] of [['oracle sample', path.join(HERE, 'expected-sample')], ['rulec captures', path.join(HERE, 'expected')]] as const) {
  describe(`conformance: ${label}`, () => {
    for (const exp of load(dir)) {
      const profile = profileByName(PROFILE_OF[exp.agent] ?? exp.agent);
      for (const [key, run] of Object.entries(exp.runs)) {
        it(`${exp.agent} ${exp.fixture} ${key}`, () => {
          expect(profile, `profile for ${exp.agent}`).toBeDefined();
          expect(fs.existsSync(path.join(FIXTURES, exp.fixture))).toBe(true);
          const view = fixtureView(exp.fixture, { root: ROOT, home: HOME, ...(run.listing ? { listing: run.listing } : {}) });
          const cwd = run.workdir === '.' ? '' : run.workdir;
          const result = profile!.load(view, cwd, optionsOf(exp.agent, run));
          expect(normalise(result.text)).toBe(run.instruction_text);
          expect(result.agentVersion).toBe(exp.agent_version);
        });
      }
    }
  });
}
