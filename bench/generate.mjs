#!/usr/bin/env node
// Deterministic synthetic monorepo for `npm run bench`.
//
//   node bench/generate.mjs [--seed 1] [--files 100000] [--dirs N] [--instruction-files N]
//                           [--rules N] [--out DIR] [--force]
//
// Same options => same tree, same bytes, same git commit id. Node built-ins only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HERE, '..');
export const BENCH_DIR = path.join(REPO_ROOT, '.bench');
const MARKER = path.join('.git', 'rulec-bench-complete.json');
const GENERATOR_VERSION = 3;

// ---------------------------------------------------------------- PRNG

/** mulberry32: tiny, fast, good enough for synthetic data, identical everywhere. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeRng(seed) {
  const next = mulberry32(seed);
  const rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), // inclusive
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    /** Weighted pick from [[value, weight], ...]. */
    weighted(pairs) {
      let total = 0;
      for (const [, w] of pairs) total += w;
      let r = next() * total;
      for (const [v, w] of pairs) {
        r -= w;
        if (r < 0) return v;
      }
      return pairs[pairs.length - 1][0];
    },
  };
  return rng;
}

// ---------------------------------------------------------------- options

/** Fill in defaults; dirs / instruction files / glob rules scale with the file count. */
export function resolveOptions(opts = {}) {
  const seed = opts.seed ?? 1;
  const files = opts.files ?? 100_000;
  const o = {
    seed: Number(seed),
    files: Number(files),
    dirs: Number(opts.dirs ?? Math.max(50, Math.round(files / 5))),
    instructionFiles: Number(opts.instructionFiles ?? Math.max(20, Math.round(files / 50))),
    globRules: Number(opts.globRules ?? Math.max(10, Math.round(files / 50))),
  };
  for (const [k, v] of Object.entries(o)) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`generate: --${k} must be a non-negative integer, got ${v}`);
  }
  if (o.dirs < 20) throw new Error('generate: need at least 20 directories');
  if (o.files < o.dirs) throw new Error('generate: need at least as many files as directories');
  return o;
}

/** `.bench/monorepo-<seed>-<files>`, with a suffix only when a derived default was overridden. */
export function defaultRepoDir(opts = {}) {
  const o = resolveOptions(opts);
  const d = resolveOptions({ seed: o.seed, files: o.files });
  let name = `monorepo-${o.seed}-${o.files}`;
  if (o.dirs !== d.dirs || o.instructionFiles !== d.instructionFiles || o.globRules !== d.globRules) {
    name += `-d${o.dirs}-i${o.instructionFiles}-r${o.globRules}`;
  }
  return path.join(BENCH_DIR, name);
}

// ---------------------------------------------------------------- vocabulary

const CHILD_NAMES = [
  'src', 'lib', 'components', 'utils', 'hooks', 'api', 'models', 'services', 'internal', 'core',
  'handlers', 'test', '__tests__', 'fixtures', 'scripts', 'config', 'styles', 'assets', 'routes',
  'pages', 'views', 'store', 'types', 'helpers', 'middleware', 'adapters', 'db', 'migrations',
  'schemas', 'plugins', 'workers', 'jobs', 'cmd', 'pkg', 'docs', 'examples', 'e2e', 'integration',
  'unit', 'mocks', 'i18n', 'locales', 'features', 'widgets', 'shared', 'common', 'domain', 'infra',
  'auth', 'billing', 'search', 'payments', 'orders', 'users', 'reports', 'events', 'cache', 'queue',
];
const TEST_DIRS = new Set(['test', '__tests__', 'e2e', 'integration', 'unit']);
const WORDS = [
  'alpha', 'beta', 'gamma', 'delta', 'account', 'button', 'cart', 'client', 'config', 'date',
  'emitter', 'filter', 'format', 'graph', 'header', 'index', 'loader', 'mapper', 'parser', 'router',
  'session', 'table', 'token', 'upload', 'validator', 'widget', 'worker', 'module', 'service', 'store',
];
const TOPICS = [
  'Testing', 'Code style', 'Error handling', 'Logging', 'Commits', 'Pull requests', 'Dependencies',
  'Security', 'Performance', 'Accessibility', 'API design', 'Database access', 'Naming', 'Comments',
  'Releases', 'Documentation', 'Type safety', 'Imports', 'Configuration', 'Observability',
];
const BULLETS = [
  'Prefer small, focused functions; extract a helper once a block needs a comment.',
  'Use named exports only, and keep one public concept per module.',
  'Every new module gets a unit test next to it, named after the module.',
  'Never swallow errors: wrap them with context and rethrow, or return a typed result.',
  'Log with structured fields (`requestId`, `userId`) instead of string concatenation.',
  'Keep public types in `types.ts` and re-export them from the package entry point.',
  'Do not add a dependency without checking its licence and maintenance status.',
  'Format with the repository formatter before committing; do not hand-align code.',
  'Write commit subjects in the imperative mood, under 72 characters.',
  'Pull requests describe the why, link the issue, and list how the change was tested.',
  'Prefer `unknown` over `any`, and narrow it explicitly with a type guard.',
  'Database queries go through the repository layer, never straight from a handler.',
  'Validate all external input at the boundary; trust nothing from the network.',
  'Feature flags are read once per request and passed down, not re-read in leaf code.',
  'Use the shared date helpers; never construct dates from locale-dependent strings.',
  'Components are function components with explicit prop types.',
  'Styles live next to their component; no global selectors outside `styles/`.',
  'Keep fixtures small and deterministic; generate large data in the test itself.',
  'Snapshot tests are allowed only for serialisers, not for rendered UI.',
  'Public functions carry a short doc comment that says what, not how.',
  'Time-dependent code takes a clock parameter so tests can pin it.',
  'Retry network calls with backoff, and cap the total time spent retrying.',
  'Migrations are append-only; never edit one that has been applied anywhere.',
  'Keep configuration in typed objects with defaults; read the environment in one place.',
  'Use the package-local `README.md` to record decisions that affect callers.',
  'Benchmarks live under `bench/` and are not run in the default test suite.',
  'Prefer composition over inheritance for services and adapters.',
  'Keep translations keyed by stable ids; never concatenate translated fragments.',
  'Metrics names are lowercase, dot-separated, and documented in the dashboard repo.',
  'Treat warnings from the type checker as errors in this package.',
];
const PARAGRAPHS = [
  'This area is owned by the platform team. Ask in the team channel before changing shared contracts.',
  'The code here runs in production on every request, so keep it allocation-light and avoid blocking I/O.',
  'Most changes in this directory need a matching update to the integration tests and the changelog.',
  'These guidelines extend the repository-wide instructions; where they differ, the more specific text applies.',
  'When in doubt, follow the existing patterns in neighbouring files rather than introducing a new style.',
];
const FENCES = [
  ['bash', ['npm run build', 'npm test -- --run', 'npm run lint']],
  ['bash', ['pnpm install --frozen-lockfile', 'pnpm --filter ./packages/... test']],
  ['ts', ['export function parse(input: string): Result<Config> {', '  const data = JSON.parse(input) as unknown;', '  return validateConfig(data);', '}']],
  ['ts', ['describe("formatPrice", () => {', '  it("formats cents", () => {', '    expect(formatPrice(1234)).toBe("12.34");', '  });', '});']],
  ['json', ['{', '  "extends": "../../tsconfig.base.json",', '  "compilerOptions": { "outDir": "dist" }', '}']],
  ['sh', ['git switch -c fix/short-description', 'git commit -m "Fix the thing"']],
];

/** Plausible Markdown of roughly `target` bytes (clamped to 200..6000), one code fence. */
function markdown(rng, title, target) {
  target = Math.max(200, Math.min(6000, target));
  const out = [`# ${title}`, '', rng.pick(PARAGRAPHS), ''];
  const [lang, lines] = rng.pick(FENCES);
  out.push('## Commands', '', '```' + lang, ...lines, '```', '');
  const used = new Set();
  let size = out.join('\n').length;
  while (size < target) {
    let topic = rng.pick(TOPICS);
    if (used.has(topic)) topic = `${topic} (${used.size})`;
    used.add(topic);
    const sec = [`## ${topic}`, ''];
    if (rng.chance(0.4)) sec.push(rng.pick(PARAGRAPHS), '');
    const n = rng.int(2, 6);
    for (let i = 0; i < n; i++) sec.push(`- ${rng.pick(BULLETS)}`);
    sec.push('');
    const chunk = sec.join('\n') + '\n';
    if (size + chunk.length > 6000) break;
    out.push(...sec);
    size += chunk.length;
  }
  let text = out.join('\n').replace(/\n+$/, '') + '\n';
  while (Buffer.byteLength(text) < 200) text += `\n- ${rng.pick(BULLETS)}\n`;
  return text;
}

function instructionSize(rng) {
  // log-uniform in [200, 6000] bytes, so most files are small and a few are large
  return Math.round(Math.exp(Math.log(200) + rng.next() * (Math.log(6000) - Math.log(200))));
}

function yamlString(s) {
  return JSON.stringify(s); // a JSON string is a valid double-quoted YAML scalar
}

// ---------------------------------------------------------------- planning

/**
 * Plan the whole repository in memory: directories, ordinary files, instruction files.
 * Returns { dirs: string[], files: Map<path, content>, meta }.
 */
export function planMonorepo(opts = {}) {
  const o = resolveOptions(opts);
  const rng = makeRng(o.seed);

  // --- directories. `dirs` counts ordinary directories, not .claude/.cursor/.github.
  const dirList = []; // {path, depth, name, children:Set, area}
  const byPath = new Map();
  const addDir = (parent, name) => {
    const p = parent ? `${parent.path}/${name}` : name;
    if (byPath.has(p)) return byPath.get(p);
    const d = { path: p, depth: parent ? parent.depth + 1 : 1, name, children: new Set(), exts: new Set(), direct: new Set(), files: [], root: parent?.root ?? null };
    if (parent) parent.children.add(name);
    dirList.push(d);
    byPath.set(p, d);
    return d;
  };
  const D = o.dirs;
  const nPkgs = Math.max(3, Math.round(D / 100));
  const nApps = Math.max(1, Math.round(D / 500));
  const nSvcs = Math.max(1, Math.round(D / 400));
  const nLibs = Math.max(1, Math.round(D / 400));
  const top = {};
  for (const t of ['packages', 'apps', 'services', 'libs', 'tools', 'docs']) top[t] = addDir(null, t);
  const roots = [];
  const mkRoot = (parent, name) => {
    const r = addDir(parent, name);
    r.root = r;
    r.isProject = true;
    roots.push(r);
    addDir(r, 'src');
    addDir(r, 'test');
    return r;
  };
  for (let i = 0; i < nPkgs; i++) mkRoot(top.packages, `pkg-${i}`);
  for (let i = 0; i < nApps; i++) mkRoot(top.apps, `app-${i}`);
  for (let i = 0; i < nSvcs; i++) mkRoot(top.services, `svc-${i}`);
  for (let i = 0; i < nLibs; i++) mkRoot(top.libs, `lib-${i}`);
  for (const t of ['eslint-config', 'codegen', 'release']) mkRoot(top.tools, t);
  for (const t of ['guides', 'adr', 'reference', 'runbooks']) addDir(top.docs, t);

  const MAX_DEPTH = 11;
  // Grow: pick a random existing directory below the top level and give it a child.
  // A random recursive tree gives a natural mix of wide and deep subtrees.
  let guard = 0;
  while (dirList.length < D && guard++ < D * 50) {
    const parent = dirList[rng.int(6, dirList.length - 1)];
    if (parent.depth >= MAX_DEPTH || parent === top.packages || parent === top.apps || parent === top.services || parent === top.libs) continue;
    let name = parent.path.startsWith('docs') ? rng.pick(['guides', 'api', 'howto', 'design', 'adr', 'reference', 'tutorials', 'images']) : rng.pick(CHILD_NAMES);
    if (parent.children.has(name)) name = `${name}-${parent.children.size}`;
    if (parent.children.has(name)) continue;
    addDir(parent, name);
  }

  // --- ordinary files
  const files = new Map(); // path -> string
  const fileList = []; // ordinary files, in creation order
  const put = (dir, name, content) => {
    const p = dir ? `${dir.path}/${name}` : name;
    files.set(p, content);
    if (dir) {
      fileList.push(p);
      dir.files.push(p);
      const m = /\.([a-z0-9]+)$/.exec(name);
      const ext = name.endsWith('.test.ts') ? 'test.ts' : m ? m[1] : '';
      dir.direct.add(ext);
      for (let d = dir; d; d = byPath.get(d.path.slice(0, d.path.lastIndexOf('/')))) {
        d.exts.add(ext);
        if (!d.path.includes('/')) break;
      }
    }
    return p;
  };
  put(null, 'package.json', JSON.stringify({ name: 'synthetic-monorepo', private: true, workspaces: ['packages/*', 'apps/*', 'services/*', 'libs/*', 'tools/*'] }, null, 2) + '\n');
  put(null, 'README.md', '# Synthetic monorepo\n\nGenerated by rulec bench/generate.mjs.\n');
  put(null, '.gitignore', 'node_modules/\ndist/\n*.local.md\n');
  put(null, 'tsconfig.base.json', '{ "compilerOptions": { "strict": true } }\n');
  for (const r of roots) {
    put(r, 'package.json', JSON.stringify({ name: r.path.replace(/\//g, '-'), version: '0.0.0', private: true }) + '\n');
    put(r, 'README.md', `# ${r.name}\n`);
    put(r, 'tsconfig.json', '{ "extends": "../../tsconfig.base.json" }\n');
  }
  // Reserve room for instruction files in the --files total.
  const ordinaryTarget = Math.max(files.size, o.files - o.instructionFiles);
  let counter = 0;
  const fileName = (dir) => {
    const n = counter++;
    const w = rng.pick(WORDS);
    const nm = dir.name.replace(/-\d+$/, '');
    if (TEST_DIRS.has(nm)) return rng.chance(0.7) ? `${w}-${n}.test.ts` : `${w}-${n}.spec.ts`;
    if (dir.path.startsWith('docs')) return rng.chance(0.9) ? `${w}-${n}.md` : `diagram-${n}.svg`;
    if (nm === 'components' || nm === 'widgets' || nm === 'pages' || nm === 'views') return rng.chance(0.75) ? `${w[0].toUpperCase()}${w.slice(1)}${n}.tsx` : `${w}-${n}.css`;
    if (nm === 'styles') return `${w}-${n}.css`;
    if (nm === 'config') return rng.chance(0.5) ? `${w}-${n}.json` : `${w}-${n}.yaml`;
    if (nm === 'migrations') return `${String(n).padStart(6, '0')}_${w}.sql`;
    if (nm === 'locales' || nm === 'i18n') return `${w}-${n}.json`;
    const kind = rng.weighted([['ts', 50], ['test.ts', 12], ['tsx', 10], ['js', 8], ['json', 5], ['md', 5], ['py', 4], ['go', 4], ['sh', 2]]);
    if (kind === 'ts' && rng.chance(0.15)) return `module-${n}.ts`;
    return `${w}-${n}.${kind}`;
  };
  const tinyContent = (name, n) => {
    if (rng.chance(0.7)) return '';
    if (name.endsWith('.ts') || name.endsWith('.tsx') || name.endsWith('.js')) return `export const v${n} = ${n};\n`;
    if (name.endsWith('.json')) return `{ "id": ${n} }\n`;
    if (name.endsWith('.md')) return `# Note ${n}\n`;
    if (name.endsWith('.py')) return `V${n} = ${n}\n`;
    if (name.endsWith('.go')) return `package main\n`;
    return `# ${n}\n`;
  };
  // every directory gets at least one file, so every directory exists in git
  for (let i = 6; i < dirList.length && files.size < ordinaryTarget; i++) {
    const d = dirList[i];
    const name = fileName(d);
    put(d, name, tinyContent(name, counter));
  }
  for (const t of Object.values(top)) {
    if (t.files.length === 0) put(t, 'README.md', `# ${t.name}\n`);
  }
  while (files.size < ordinaryTarget) {
    // bias towards deeper directories: pick two, keep the deeper one
    const a = dirList[rng.int(6, dirList.length - 1)];
    const b = dirList[rng.int(6, dirList.length - 1)];
    const d = b.depth > a.depth ? b : a;
    const name = fileName(d);
    put(d, name, tinyContent(name, counter));
  }

  // --- instruction files
  const instr = []; // {path, kind}
  const addInstr = (p, kind, content) => {
    files.set(p, content);
    instr.push({ path: p, kind });
  };
  addInstr('AGENTS.md', 'agents', markdown(rng, 'Repository instructions', rng.int(2500, 5000)));
  addInstr('CLAUDE.md', 'claude', markdown(rng, 'Claude instructions for the monorepo', rng.int(1500, 4000)));

  const budget = o.instructionFiles;
  const nestedDirTarget = Math.max(1, Math.round(budget * 0.15));
  const overrideTarget = Math.max(1, Math.round(budget * 0.015));
  const byDepth = new Map();
  for (const d of dirList) {
    if (d.depth > 6) continue;
    if (!byDepth.has(d.depth)) byDepth.set(d.depth, []);
    byDepth.get(d.depth).push(d);
  }
  const instrDirs = [];
  const chosen = new Set();
  guard = 0;
  while (instrDirs.length < nestedDirTarget && guard++ < nestedDirTarget * 100) {
    // project roots are the most common home of nested instructions; the rest spread over depths 1-6
    let d;
    if (rng.chance(0.35)) d = rng.pick(roots);
    else {
      const depth = rng.int(1, 6);
      const list = byDepth.get(depth);
      if (!list) continue;
      d = rng.pick(list);
    }
    if (chosen.has(d.path)) continue;
    chosen.add(d.path);
    instrDirs.push(d);
  }
  let nested = 0;
  for (const d of instrDirs) {
    const kinds = [];
    if (rng.chance(0.8)) kinds.push('AGENTS.md');
    if (rng.chance(0.5)) kinds.push('CLAUDE.md');
    if (rng.chance(0.15)) kinds.push('GEMINI.md');
    if (kinds.length === 0) kinds.push(rng.pick(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']));
    for (const k of kinds) {
      addInstr(`${d.path}/${k}`, k.replace('.md', '').toLowerCase(), markdown(rng, `${k.replace('.md', '')} notes for ${d.path}`, instructionSize(rng)));
      nested++;
    }
    d.instr = kinds;
  }
  const withAgents = instrDirs.filter((d) => d.instr.includes('AGENTS.md'));
  for (let i = 0; i < overrideTarget && i < withAgents.length; i++) {
    const d = withAgents[Math.floor((i * withAgents.length) / overrideTarget)];
    addInstr(`${d.path}/AGENTS.override.md`, 'agents-override', markdown(rng, `Override for ${d.path}`, rng.int(200, 1200)));
  }

  // glob rules
  const ruleFiles = Math.max(1, Math.min(o.globRules || 1, budget - instr.length));
  const globsPerFile = new Array(ruleFiles).fill(1);
  for (let i = ruleFiles; i < o.globRules; i++) globsPerFile[rng.int(0, ruleFiles - 1)]++;

  const pickExt = (d, set = d.exts) => {
    const exts = [...set].filter((e) => e && e !== 'svg').sort();
    return exts.length ? rng.pick(exts) : 'ts';
  };
  const deepDirs = dirList.filter((d) => d.depth >= 2);
  const GLOBAL_GLOBS = ['**/*.test.ts', '**/*.spec.ts', '**/*.tsx', '**/*.{ts,tsx}', '**/package.json', '**/__tests__/**', '**/*.md', '**/migrations/**/*.sql', '**/*.css', '**/*.py', '**/*.go', '**/config/**/*.{json,yaml}'];
  let dead = 0;
  // Comma-separated formats (Cursor `globs:`, Copilot `applyTo:`) cannot carry a brace list
  // unambiguously, so braces only appear in Claude `paths:` lists.
  const makeGlob = (allowBrace) => {
    const kind = rng.weighted([['dirExt', 35], ['dirAll', 12], ['global', 10], ['brace', 14], ['topMd', 6], ['file', 10], ['shallow', 8], ['projectTests', 2], ['dead', 3]]);
    const d = rng.pick(deepDirs);
    switch (kind) {
      case 'dirExt': return `${d.path}/**/*.${pickExt(d)}`;
      case 'dirAll': return rng.chance(0.5) ? `${d.path}/**` : `${d.path}/**/*`;
      case 'global': {
        const g = rng.pick(GLOBAL_GLOBS);
        return allowBrace || !g.includes('{') ? g : g.replace(/\{([a-z]+),[a-z]+\}/, '$1');
      }
      case 'brace': { const r = d.root ?? d; return allowBrace ? `${r.path}/**/*.{ts,tsx}` : `${r.path}/**/*.ts`; }
      case 'topMd': return rng.chance(0.5) ? 'docs/**/*.md' : `${rng.pick(['docs', 'packages', 'apps', 'services'])}/**/README.md`;
      case 'file': return rng.pick(fileList);
      case 'shallow': return `${d.path}/*.${pickExt(d, d.direct)}`;
      case 'projectTests': { const r = rng.pick(roots); return allowBrace ? `${r.path}/test/**/*.{test,spec}.ts` : `${r.path}/test/**`; }
      default: dead++; return rng.chance(0.5) ? `legacy/${rng.pick(WORDS)}-${rng.int(0, 99)}/**/*.rb` : `packages/pkg-${9000 + rng.int(0, 999)}/**`;
    }
  };
  const AREAS = ['frontend', 'backend', 'testing', 'docs', 'infra', 'security', 'style', 'data'];
  let globCount = 0;
  for (let i = 0; i < ruleFiles; i++) {
    const fmt = rng.weighted([['claude', 50], ['cursor', 25], ['copilot', 25]]);
    const globs = [];
    for (let g = 0; g < globsPerFile[i]; g++) globs.push(makeGlob(fmt === 'claude'));
    globCount += globs.length;
    const topic = rng.pick(TOPICS);
    const title = `${topic} rules (${i})`;
    const slug = `${topic.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${i}`;
    const body = markdown(rng, title, instructionSize(rng));
    if (fmt === 'claude') {
      const sub = rng.chance(0.6) ? `${rng.pick(AREAS)}/` : '';
      const fm = globs.length === 1 && rng.chance(0.3)
        ? `paths: ${yamlString(globs[0])}\n`
        : `paths:\n${globs.map((g) => `  - ${yamlString(g)}`).join('\n')}\n`;
      addInstr(`.claude/rules/${sub}${slug}.md`, 'claude-rule', `---\n${fm}---\n\n${body}`);
    } else if (fmt === 'cursor') {
      addInstr(`.cursor/rules/${slug}.mdc`, 'cursor-rule', `---\ndescription: ${yamlString(`${topic} guidance`)}\nglobs: ${yamlString(globs.join(', '))}\nalwaysApply: false\n---\n\n${body}`);
    } else {
      addInstr(`.github/instructions/${slug}.instructions.md`, 'copilot', `---\napplyTo: ${yamlString(globs.join(','))}\n---\n\n${body}`);
    }
  }

  // A deep path for `explain`: most instruction-bearing ancestors, then deepest, then name.
  const instrDirSet = new Set(instrDirs.map((d) => d.path));
  let deepPath = fileList[0];
  let best = [-1, -1];
  for (const p of fileList) {
    if (!p.endsWith('.ts')) continue;
    const parts = p.split('/');
    let n = 0;
    for (let i = 1; i < parts.length; i++) if (instrDirSet.has(parts.slice(0, i).join('/'))) n++;
    const score = [n, parts.length];
    if (score[0] > best[0] || (score[0] === best[0] && (score[1] > best[1] || (score[1] === best[1] && p < deepPath)))) {
      best = score;
      deepPath = p;
    }
  }

  const kinds = {};
  for (const f of instr) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
  const meta = {
    generator: GENERATOR_VERSION,
    options: o,
    counts: {
      files: files.size,
      ordinaryFiles: files.size - instr.length,
      dirs: dirList.length,
      maxDepth: Math.max(...dirList.map((d) => d.depth)),
      instructionFiles: instr.length,
      nestedInstructionDirs: instrDirs.length,
      byKind: kinds,
      ruleFiles,
      globs: globCount,
      deadGlobs: dead,
    },
    deepPath,
    deepPathInstructionAncestors: best[0],
  };
  return { files, dirs: dirList.map((d) => d.path), instructionFiles: instr.map((f) => f.path), meta };
}

// ---------------------------------------------------------------- writing

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'rulec bench',
  GIT_AUTHOR_EMAIL: 'bench@rulec.invalid',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'rulec bench',
  GIT_COMMITTER_EMAIL: 'bench@rulec.invalid',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  TZ: 'UTC',
};

function git(cwd, args) {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', '-c', 'gc.auto=0', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  }).toString();
}

/** The marker of a complete repo at `dir`, or null. */
export function readMarker(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Generate the monorepo into `dir` (or reuse it when its completion marker matches the
 * options). Returns the metadata, including `reused`, `seconds` and `commit`.
 */
export function generateMonorepo(dir, opts = {}) {
  const o = resolveOptions(opts);
  dir = path.resolve(dir);
  const existing = readMarker(dir);
  if (!opts.force && existing && existing.generator === GENERATOR_VERSION && JSON.stringify(existing.options) === JSON.stringify(o)) {
    return { ...existing, dir, reused: true };
  }
  if (fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true }); // stale or incomplete
  const t0 = performance.now();
  const plan = planMonorepo(o);
  const tPlan = performance.now();
  const tmp = `${dir}.partial-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const made = new Set();
  const mkdirp = (d) => {
    if (made.has(d)) return;
    fs.mkdirSync(d, { recursive: true });
    made.add(d);
  };
  for (const d of plan.dirs) mkdirp(path.join(tmp, d));
  for (const [rel, content] of plan.files) {
    const abs = path.join(tmp, rel);
    mkdirp(path.dirname(abs));
    fs.writeFileSync(abs, content);
  }
  const tWrite = performance.now();
  git(tmp, ['init', '-q', '--initial-branch=main']);
  git(tmp, ['add', '-A']);
  git(tmp, ['commit', '-q', '--no-verify', '-m', `Synthetic monorepo (seed ${o.seed}, ${o.files} files)`]);
  const commit = git(tmp, ['rev-parse', 'HEAD']).trim();
  const tracked = git(tmp, ['ls-files', '-z']).split('\0').filter(Boolean).length;
  const tGit = performance.now();
  if (tracked !== plan.files.size) throw new Error(`generate: git tracks ${tracked} files, planned ${plan.files.size}`);

  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  const meta = {
    ...plan.meta,
    commit,
    tracked,
    timings: {
      planSeconds: +((tPlan - t0) / 1000).toFixed(2),
      writeSeconds: +((tWrite - tPlan) / 1000).toFixed(2),
      gitSeconds: +((tGit - tWrite) / 1000).toFixed(2),
    },
    seconds: +((performance.now() - t0) / 1000).toFixed(2),
  };
  // marker last: its presence means the directory is complete
  fs.writeFileSync(path.join(dir, MARKER), JSON.stringify(meta, null, 2) + '\n');
  return { ...meta, dir, reused: false };
}

/** Generate (or reuse) the cached repo under `.bench/`. */
export function ensureMonorepo(opts = {}) {
  return generateMonorepo(opts.out ?? defaultRepoDir(opts), opts);
}

// ---------------------------------------------------------------- CLI

export const SIZE_ARGS = {
  seed: { type: 'string' },
  files: { type: 'string' },
  dirs: { type: 'string' },
  'instruction-files': { type: 'string' },
  rules: { type: 'string' },
};

/** Turn parsed size flags into generator options (undefined = default). */
export function sizeOptions(values) {
  const num = (v) => (v === undefined ? undefined : Number(v));
  return {
    seed: num(values.seed),
    files: num(values.files),
    dirs: num(values.dirs),
    instructionFiles: num(values['instruction-files']),
    globRules: num(values.rules),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({
      options: { ...SIZE_ARGS, out: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      console.log('usage: node bench/generate.mjs [--seed 1] [--files 100000] [--dirs N] [--instruction-files N] [--rules N] [--out DIR] [--force]');
      process.exit(0);
    }
    const opts = { ...sizeOptions(values), out: values.out, force: values.force };
    const meta = ensureMonorepo(opts);
    console.log(JSON.stringify(meta, null, 2));
  } catch (err) {
    console.error(`generate: ${err.message}`);
    process.exit(2);
  }
}
