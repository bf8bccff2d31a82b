/**
 * `rulec explain PATH --profile NAME`: what one agent would inject for a
 * session started in PATH's directory, file by file — from the work tree as
 * the agent sees it (git-ignored personal files included, global files from
 * the home directory), with the profile's options from the policy and --option.
 */
import { existsSync, opendirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { CompileOptions } from '../../compile.js';
import { loadPolicy } from '../../config/load-policy.js';
import { discover } from '../../discover/discover.js';
import { readUnderRoot } from '../../discover/read-source.js';
import { walkTree } from '../../discover/walk.js';
import { UsageError } from '../../diagnostics/errors.js';
import { PROFILES, profileByName } from '../../profiles/registry.js';
import type { DirEntry, ProfileResult, RepoView } from '../../profiles/types.js';
import { num } from '../../report/text.js';
import { redact, redactDeep, redactionsOf } from '../../diagnostics/redact.js';
import { escapeFields, jsonText, oneLine } from '../../report/escape.js';
import { secretSitesInText } from '../../validate/lint/secrets.js';
import { printContext, warnAboutSecrets } from './print-context.js';
import { compareCodeUnits } from '../../util/compare.js';
import { dirnameOf, toPosix } from '../../util/posix-path.js';
import type { Io } from '../io.js';

export interface ProfileRequest {
  name: string;
  path: string;
  home: string | null;
  /** `key=value` overrides of the profile's options (value read as JSON when it parses). */
  options: string[];
  format: 'text' | 'json';
  text: boolean;
}

export async function explainProfile(io: Io, compile: CompileOptions & { repoDir: string }, req: ProfileRequest): Promise<void> {
  const profile = profileByName(req.name);
  if (!profile) throw new UsageError(`unknown profile "${req.name}"; known: ${PROFILES.map((p) => p.name).join(', ')}`);
  const { policy } = loadPolicy(compile.repoDir, compile.policyFile);
  const found = await discover({ repoDir: compile.repoDir, managedDir: null, includeLocal: true, policy });
  const { rootReal, files } = found.value;
  const paths = [...new Set([...found.value.paths, ...files.filter((f) => f.root === 'repo').map((f) => f.id)])].sort(compareCodeUnits);
  const max = policy.discover.max_file_bytes;
  const home = req.home && existsSync(req.home) ? req.home : null;
  const cache = new Map<string, Uint8Array | undefined>();
  const reader = (root: string, prefix: string) => (rel: string): Uint8Array | undefined => {
    const key = prefix + rel;
    if (!cache.has(key)) {
      const r = readUnderRoot(root, rel, key, max);
      cache.set(key, r.ok ? r.bytes : undefined);
    }
    return cache.get(key);
  };
  const view: RepoView = {
    paths,
    read: reader(rootReal, ''),
    readHome: home ? reader(home, '~/') : () => undefined,
    rootDisplay: toPosix(rootReal),
    homeDisplay: home ? toPosix(home) : '~',
    homePaths: home ? walkTree(join(home, '.claude', 'rules'), []).map((r) => `.claude/rules/${r}`) : [],
    realPath: (rel) => realUnder(rootReal, rel),
    listDir: (dir) => (dir.startsWith('~/') ? (home ? listUnder(home, dir.slice(2)) : undefined) : listUnder(rootReal, dir)),
  };
  const fromPolicy = (policy.profiles as Record<string, unknown> | undefined)?.[profile.name];
  const options = { ...(typeof fromPolicy === 'object' && fromPolicy !== null ? fromPolicy as Record<string, unknown> : {}), ...parseOptions(req.options) };
  const cwd = paths.includes(req.path) || isFile(rootReal, req.path) ? dirnameOf(req.path) : req.path;
  const result = profile.load(view, cwd, options);
  // Only the injected text itself may show a secret it holds (and printContext says so); the listing is redacted.
  const redactions = redactionsOf(secretSitesInText('', result.text));
  const { text, ...listing } = result;
  if (req.format === 'json') {
    io.out(`${jsonText({ path: req.path, agent: profile.agent, options: redactDeep(options, redactions), ...redactDeep(listing, redactions), ...(req.text ? { text } : {}) })}\n`);
    if (req.text) warnAboutSecrets(io, 'explain', text);
  } else if (req.text) printContext(io, 'explain', text);
  else io.out(redact(formatProfile(oneLine(req.path), profile.agent, escapeFields(result)), redactions));
}

/** Where `rel` leads under `rootReal` with every link on the way followed (parent directories too), or undefined outside or missing. */
function realUnder(rootReal: string, rel: string): string | undefined {
  try {
    const within = relative(rootReal, realpathSync(join(rootReal, ...rel.split('/'))));
    return within.startsWith(`..${sep}`) || within === '..' || /^[A-Za-z]:/.test(within) || within.startsWith(sep) ? undefined : toPosix(within);
  } catch {
    return undefined;
  }
}

/**
 * Entries of `rel` under `root` in the order the file system lists them (opendir: readdirSync
 * sorts), links followed only while they stay under `root`; undefined when it is no directory.
 */
function listUnder(root: string, rel: string): DirEntry[] | undefined {
  try {
    const rootReal = realpathSync(root);
    const abs = realpathSync(join(root, ...rel.split('/').filter((x) => x !== '')));
    const within = relative(rootReal, abs);
    if (within.startsWith(`..${sep}`) || within === '..') return undefined;
    const d = opendirSync(abs);
    const out: DirEntry[] = [];
    try {
      for (let e = d.readSync(); e !== null; e = d.readSync()) {
        out.push({ name: e.name, isDir: e.isDirectory() || (e.isSymbolicLink() && statSync(join(abs, e.name), { throwIfNoEntry: false })?.isDirectory() === true) });
      }
    } finally {
      d.closeSync();
    }
    return out;
  } catch {
    return undefined;
  }
}

function isFile(root: string, rel: string): boolean {
  try {
    return rel !== '' && statSync(join(root, rel)).isFile();
  } catch {
    return false;
  }
}

function parseOptions(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--option expects key=value, got "${pair}"`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a bare string
    }
    out[pair.slice(0, eq)] = value;
  }
  return out;
}

export function formatProfile(path: string, agent: string, r: ProfileResult): string {
  const out = [`${path === '' ? '.' : path} — ${agent} ${r.agentVersion} (session started in ${r.cwd === '' ? 'the repository root' : r.cwd})`,
    `  injects ${num(r.bytes)} bytes, ${num(r.tokens)} tokens${r.truncated ? ' — TRUNCATED by the agent\'s budget' : ''}`];
  if (r.budget) out.push(`  budget: ${num(r.budget.used)} of ${num(r.budget.limit)} ${r.budget.unit}`);
  out.push('', 'Files, in the order the agent considers them:');
  if (r.files.length === 0) out.push('  (none)');
  r.files.forEach((f, i) => {
    const state = f.skipped ? `skipped: ${f.skipped}` : f.cut ? `CUT at byte ${num(f.cut.offset)}, ${num(f.cut.bytesLost)} bytes lost` : 'loaded';
    out.push(`  ${String(i + 1).padStart(2)}. ${f.path}  [${f.origin}]  ${num(f.keptBytes)}/${num(f.bytes)} bytes, ${num(f.tokens)} tokens — ${state}`);
    out.push(`      why: ${f.reason}`);
  });
  if (r.notes.length > 0) out.push('', 'Notes:', ...r.notes.map((n) => `  ${n}`));
  out.push('', 'Use --text for the exact text the agent sends.');
  return `${out.join('\n')}\n`;
}
