/**
 * `rulec explain PATH --profile NAME`: what one agent would inject for a
 * session started in PATH's directory, file by file — from the work tree as
 * the agent sees it (git-ignored personal files included, global files from
 * the home directory), with the profile's options from the policy and --option.
 */
import { existsSync, opendirSync } from 'node:fs';
import type { CompileOptions } from '../../compile.js';
import { compilePolicy } from '../../compile-options.js';
import { discover } from '../../discover/discover.js';
import { readConfined } from '../../confined/read-confined.js';
import { confinedDir, confinedEntry } from '../../confined/resolve-beneath.js';
import { walkTree } from '../../discover/walk.js';
import { UsageError } from '../../util/errors.js';
import { readPackageJson } from '../../config/package-files.js';
import { compileSchema } from '../../config/schema-check.js';
import { PROFILES, profileByName } from '../../profiles/registry.js';
import type { DirEntry, ProfileResult, RepoView } from '../../profiles/types.js';
import { num } from '../../report/num.js';
import { redact, redactDeep, redactionsOf } from '../../diagnostics/redact.js';
import { escapeFields, jsonText, oneLine } from '../../report/escape.js';
import { secretSitesInText } from '../../validate/lint/secrets.js';
import { printContext, warnAboutSecrets } from './print-context.js';
import { compareCodeUnits } from '../../util/compare.js';
import { dirnameOf, toPosix } from '../../util/posix-path.js';
import type { Io } from '../io.js';
import { realPath } from '../../util/real-path.js';

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
  const cliOptions = parseOptions(profile.name, req.options);
  // An invalid policy is a configuration failure (exit 2), as for every other command: never replaced by the built-in one.
  const policy = compilePolicy({ repoDir: compile.repoDir, ...(compile.policyFile ? { policyFile: compile.policyFile } : {}) });
  const found = await discover({ repoDir: compile.repoDir, managedDir: null, includeLocal: true, policy });
  const { rootReal, files } = found.value;
  const paths = [...new Set([...found.value.paths, ...files.filter((f) => f.root === 'repo').map((f) => f.rel)])].sort(compareCodeUnits);
  const max = policy.discover.max_file_bytes;
  // readConfined needs real roots: a home reached through a symlink is still the user's home.
  const home = req.home && existsSync(req.home) ? realPath(req.home) : null;
  const cache = new Map<string, Uint8Array | undefined>();
  const reader = (root: string, prefix: string) => (rel: string): Uint8Array | undefined => {
    const key = prefix + rel;
    if (!cache.has(key)) {
      const r = readConfined(root, rel, key, max);
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
    homePaths: home ? homeRules(home) : [],
    realPath: (rel) => realUnder(rootReal, rel),
    listDir: (dir) => (dir.startsWith('~/') ? (home ? listUnder(home, dir.slice(2)) : undefined) : listUnder(rootReal, dir)),
  };
  const fromPolicy = (policy.profiles as Record<string, unknown> | undefined)?.[profile.name];
  const options = { ...(typeof fromPolicy === 'object' && fromPolicy !== null ? fromPolicy as Record<string, unknown> : {}), ...cliOptions };
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

/** Where `rel` leads under `rootReal` with every link on the way followed (parent directories too), or undefined outside or missing (nothing outside is stat'ed). */
function realUnder(rootReal: string, rel: string): string | undefined {
  return confinedEntry(rootReal, rel)?.realRel;
}

/**
 * Entries of `rel` under `root` in the order the file system lists them (opendir: readdirSync
 * sorts), links followed only while they stay under `root`; undefined when it is no directory.
 */
function listUnder(rootReal: string, rel: string): DirEntry[] | undefined {
  try {
    const clean = rel.split('/').filter((x) => x !== '').join('/');
    // Resolved as a read resolves it: a link that leaves the root lists nothing, and nothing outside is stat'ed.
    const abs = confinedDir(rootReal, clean);
    if (abs === null) return undefined;
    const d = opendirSync(abs);
    const out: DirEntry[] = [];
    try {
      for (let e = d.readSync(); e !== null; e = d.readSync()) {
        out.push({ name: e.name, isDir: e.isDirectory() || (e.isSymbolicLink() && confinedEntry(rootReal, clean === '' ? e.name : `${clean}/${e.name}`)?.kind === 'dir') });
      }
    } finally {
      d.closeSync();
    }
    return out;
  } catch {
    return undefined;
  }
}

/** `~/.claude/rules/**` as home-relative paths, listed only when that directory lies inside the home directory. */
function homeRules(home: string): string[] {
  const dir = confinedDir(home, '.claude/rules');
  return dir ? walkTree(dir, []).map((r) => `.claude/rules/${r}`) : [];
}

function isFile(rootReal: string, rel: string): boolean {
  return rel !== '' && confinedEntry(rootReal, rel)?.kind === 'file';
}

/**
 * `--option key=value` pairs (value read as JSON when it parses), checked
 * against the profile's options in schemas/policy.schema.json: an unknown key
 * or a value of the wrong shape is refused with the list of valid options.
 */
export function parseOptions(profile: string, pairs: string[]): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  const raws = new Map<string, string>();
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
    raws.set(pair.slice(0, eq), raw);
  }
  const spec = profileOptionSchema(profile);
  const props = (spec.properties ?? {}) as Record<string, Record<string, unknown>>;
  const valid = Object.keys(props).map((k) => `${k} (${shapeOf(props[k] as Record<string, unknown>)})`);
  const known = valid.length === 0 ? `${profile} has no options` : `valid options for ${profile}: ${valid.join(', ')}`;
  for (const [key, value] of Object.entries(out)) {
    if (!Object.hasOwn(props, key)) throw new UsageError(`--option ${key}: unknown option; ${known}`);
    const ok = compileSchema({ ...(props[key] as Record<string, unknown>) })(value);
    if (!ok || (typeof value === 'number' && !Number.isSafeInteger(value))) {
      throw new UsageError(`--option ${key}=${raws.get(key) ?? ''}: expected ${shapeOf(props[key] as Record<string, unknown>)}; ${known}`);
    }
  }
  return out;
}

function profileOptionSchema(profile: string): Record<string, unknown> {
  const schema = readPackageJson('schemas/policy.schema.json') as { properties: { profiles: { properties: Record<string, Record<string, unknown>> } } };
  return schema.properties.profiles.properties[profile] ?? {};
}

/** A short description of a JSON Schema: "integer ≥ 0", "true or false", "string or list of strings". */
function shapeOf(s: Record<string, unknown>): string {
  if (Array.isArray(s.oneOf)) return (s.oneOf as Record<string, unknown>[]).map(shapeOf).join(' or ');
  const range = [s.minimum !== undefined ? `≥ ${String(s.minimum)}` : '', s.maximum !== undefined ? `≤ ${String(s.maximum)}` : ''].filter(Boolean).join(', ');
  switch (s.type) {
    case 'integer': return `integer${range ? ` ${range}` : ''}`;
    case 'boolean': return 'true or false';
    case 'string': return 'string';
    case 'array': return `list of ${shapeOf((s.items ?? {}) as Record<string, unknown>)}s`;
    default: return 'value';
  }
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
