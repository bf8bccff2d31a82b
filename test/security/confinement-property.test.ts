/**
 * Property (#8 "Done means"): over random file trees with symlinks (to files
 * and directories, inside and outside the root, chains, loops, /proc), random
 * import tokens (`..`, absolute, `~/`, `managed:`-like and `__proto__` names,
 * trailing punctuation) in the repository, the managed directory and the home
 * directory, no byte of a planted outside file — a unique marker — appears in
 * anything rulec read, in any output (diagnostics as JSON and text, explain,
 * explain --profile) or in any bundle file. And nothing throws.
 *
 * Two runs of different weight: many trees through the reading stages
 * (discover, parse, follow imports, resolve), a few through everything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { explainCommand } from '../../src/cli/commands/explain.js';
import { loadPolicy } from '../../src/config/load-policy.js';
import { discover } from '../../src/discover/discover.js';
import { followImports } from '../../src/discover/follow-imports.js';
import { writeBundle } from '../../src/emit/write-bundle.js';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { resolve } from '../../src/resolve/resolve.js';
import type { ParsedDoc } from '../../src/types.js';
import { toPosix } from '../../src/util/posix-path.js';
import { expectNoLeak } from './leaks.js';
import { makeTree, remove, type Entry, type Made, type Tree } from './tree.js';

const made: Made[] = [];
afterAll(() => made.forEach(remove));

const NAMES = ['docs', 'sub', 'a', '__proto__', 'toString', 'constructor', 'managed:', 'user:x', '..x', '.claude', 'rules', 'p', 'AGENTS.md', 'CLAUDE.md', 'x.md', 'secret.md'];
const name = fc.constantFrom(...NAMES);
const relPath = fc.array(name, { minLength: 1, maxLength: 3 }).map((segs) => segs.join('/'));

/** Where a link points: out of the root in every way there is, back inside, at itself. */
const linkTarget = fc.oneof(
  fc.constantFrom('{outside}', '{outside}/secret.md', '{outside}/sub', '{outside}/AGENTS.md', '../outside', '../outside/secret.md', '../../outside/sub',
    '/proc', '/proc/self', '/etc', '..', '../..', '.', 'nowhere', '{dir}', '{dir}/outside/secret.md'),
  relPath,
  relPath.map((p) => `../${p}`),
);

/** Import tokens as a hostile author writes them. */
const importToken = fc.oneof(
  relPath,
  fc.tuple(fc.array(fc.constantFrom('..', '.', ''), { maxLength: 3 }), relPath).map(([up, p]) => [...up, p].join('/')),
  fc.constantFrom('{outside}/secret.md', '{repo}/../outside/secret.md', '{repo}/docs/secret.md', '~/secret.md', '~/../outside/secret.md',
    'managed:secret.md', 'managed://secret.md', 'user://x.md', '/proc/self/environ', '__proto__', 'constructor', '../outside/AGENTS.md', 'p/self/environ'),
  relPath.map((p) => `${p}.),`),
);

const fileText = fc.array(importToken, { maxLength: 4 }).map((tokens) => `# Notes\n\n${tokens.map((t) => `- @${t}`).join('\n')}\n`);
const entry: fc.Arbitrary<Entry> = fc.oneof({ weight: 2, arbitrary: fileText }, { weight: 2, arbitrary: linkTarget.map((t) => ({ symlink: t })) });

/** A tree without a path that is both a file and a directory: later entries under a file, or over a directory, are dropped. */
const tree = fc.array(fc.tuple(relPath, entry), { maxLength: 10 }).map((pairs) => {
  const out: Tree = {};
  const taken = new Set<string>();
  const dirs = new Set<string>();
  for (const [p, e] of pairs) {
    const parts = p.split('/');
    const prefixes = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
    if (taken.has(p) || dirs.has(p) || prefixes.some((x) => taken.has(x))) continue;
    taken.add(p);
    prefixes.forEach((x) => dirs.add(x));
    out[p] = e;
  }
  return out;
});

const world = fc.record({
  repo: tree, managed: tree, home: tree, useGit: fc.boolean(),
  claude: fileText, agents: fileText, rule: fileText,
});

function plant(w: { repo: Tree; managed: Tree; home: Tree; useGit: boolean; claude: string; agents: string; rule: string }): Made {
  // Instruction files at fixed places, so every run has importers; the random tree may shadow them.
  const repo = merge({ 'CLAUDE.md': w.claude, 'AGENTS.md': w.agents, '.claude/rules/r.md': `---\npaths: ["**"]\n---\n${w.rule}`, 'src/a.ts': 'x\n' }, w.repo);
  const m = makeTree(repo, { useGit: w.useGit, managed: merge({ 'base.md': w.rule }, w.managed), home: merge({ '.claude/CLAUDE.md': w.claude }, w.home) });
  made.push(m);
  return m;
}

/** `base` plus the entries of `extra` that neither sit under nor over one of its paths (a random entry may replace a file). */
function merge(base: Tree, extra: Tree): Tree {
  const out: Tree = { ...base };
  for (const [p, e] of Object.entries(extra)) if (!Object.keys(base).some((k) => k.startsWith(`${p}/`) || p.startsWith(`${k}/`))) out[p] = e;
  return out;
}

async function readingStages(m: Made): Promise<void> {
  const { policy } = loadPolicy(m.repo).value;
  const found = await discover({ repoDir: m.repo, managedDir: m.managed, includeLocal: true, policy, userHome: m.home });
  const { files } = found.value;
  const docs = new Map<string, ParsedDoc>(files.map((f) => [f.id, parseDoc(f).value]));
  const roots = { repo: toPosix(found.value.rootReal), repoReal: found.value.rootReal, managedReal: found.value.managedReal, managed: toPosix(found.value.managedReal ?? '') };
  const followed = followImports(files, docs, { roots, maxDepth: 4, maxFiles: 1000, maxBytes: 1 << 22, exclusions: found.value.exclusions, parse: parseDoc });
  const { value: more } = followed;
  const all = [...files, ...more.files];
  const res = resolve({ files: all, docs: new Map([...docs, ...more.docs]), paths: found.value.paths, imports: { roots, maxDepth: 4, capped: more.capped, refused: more.refused } });
  for (const f of all) expect(Buffer.from(f.bytes).includes(m.marker), `read ${f.id}`).toBe(false);
  const said = JSON.stringify([found.diagnostics, followed.diagnostics, res.diagnostics]);
  expect(said.includes(m.marker), 'a diagnostic carries outside bytes').toBe(false);
}

function bundleFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...bundleFiles(p));
    else out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

async function everything(m: Made): Promise<void> {
  const result = await compile({ repoDir: m.repo, managedDir: m.managed, includeLocal: true, outDir: join(m.dir, 'out') });
  expectNoLeak(result, m.marker);
  const written = writeBundle(join(m.dir, 'out'), result);
  for (const text of bundleFiles(written)) expect(text.includes(m.marker), 'bundle file').toBe(false);
  const io = { out: (t: string) => void seen.push(t), err: (t: string) => void seen.push(t), cwd: m.repo };
  const seen: string[] = [];
  for (const args of [['--fresh'], ['--fresh', '--include-user', '--home', m.home, '--format', 'json'],
    ['--profile', 'claude-code', '--home', m.home, '--option', 'approve_external_imports=true', '--text'],
    ['--profile', 'gemini-cli', '--home', m.home, '--text'], ['--profile', 'copilot-cli', '--format', 'json']]) {
    await explainCommand(['src/a.ts', ...args], io);
  }
  expect(seen.join('').includes(m.marker), 'explain output').toBe(false);
}

describe('no byte from outside the roots gets in (property)', () => {
  it('reading stages, many random trees', async () => {
    await fc.assert(fc.asyncProperty(world, async (w) => {
      const m = plant(w);
      try {
        await readingStages(m);
      } finally {
        remove(m);
      }
    }), { numRuns: Number(process.env.CONFINE_RUNS ?? 15), seed: process.env.CONFINE_SEED ? Number(process.env.CONFINE_SEED) : undefined });
  }, 120_000);

  it('every output and bundle file, a few random trees', async () => {
    await fc.assert(fc.asyncProperty(world, async (w) => {
      const m = plant(w);
      try {
        await everything(m);
      } finally {
        remove(m);
      }
    }), { numRuns: Number(process.env.CONFINE_FULL_RUNS ?? 3) });
  }, 120_000);
});
