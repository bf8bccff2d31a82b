/** `rulec explain PATH`: what an agent sees at a path, in order, and why. */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CompileOptions } from '../../compile.js';
import { BundleError, openBundle, type OpenedBundle } from '../../bundle/open-bundle.js';
import { variantFor } from '../../bundle/serving.js';
import { policyDigest } from '../../config/policy.js';
import { readConfined } from '../../confined/read-confined.js';
import { classifyPath } from '../../formats/formats.js';
import { CURRENT_POINTER, parseCurrentPointer } from '../../bundle/layout.js';
import { UsageError } from '../../util/errors.js';
import { explainPath, formatExplanation, type Explanation } from '../../report/explain.js';
import { NO_REDACTIONS, redact, redactDeep, type Redactions } from '../../diagnostics/redact.js';
import { escapeFields, jsonText } from '../../report/escape.js';
import { printContext, warnAboutSecrets } from './print-context.js';
import { sha256Hex } from '../../util/hash.js';
import { dirnameOf } from '../../util/posix-path.js';
import { formatOption, parseCommandArgs, str, type Parsed } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { COMPILE_HELP, COMPILE_OPTIONS, cacheWanted, compileOptionsFrom, displayPath } from './shared.js';
import { inWorkTree, repoRelative } from './repo-path.js';

export const EXPLAIN_HELP = `Usage: rulec explain PATH [options]

Show the standing context an agent gets at PATH (a file or directory of the
repository): every source in render order with its layer, why it applies and
its tokens; the attachments whose globs match PATH; and what does not load
there and why. Answered from the repository's built bundle (<repo>/bundles/current)
when it is up to date with the work tree, otherwise compiled on the fly.

Options:
${COMPILE_HELP}
  --bundle DIR      answer from this bundle directory (verified; no freshness check)
  --fresh           always compile on the fly
  --text            print the exact frozen context text instead of the listing
  --include-user    add your personal files (~/.claude/CLAUDE.md, ~/.claude/rules, ~/.codex/AGENTS.md,
                    ~/.gemini/GEMINI.md) as the user layer; always compiled on the fly, never bundled
  --home DIR        home directory for --include-user and --profile (default: your home directory)
  --profile NAME    what one agent would load there instead: codex, claude-code, gemini-cli,
                    copilot-cli, cursor, qwen-code (files in order, bytes, tokens, what its
                    budget cuts or it skips and why; with --text, the exact text it sends)
  --option K=V      a profile option, e.g. project_doc_max_bytes=4096 (codex),
                    context_file_names='["GEMINI.md","AGENTS.md"]' (gemini-cli); repeatable
  -h, --help        show this help

Exit codes: 0 answered, 2 usage or internal failure (for example a tampered bundle).`;

export async function explainCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...COMPILE_OPTIONS, bundle: { type: 'string' }, fresh: { type: 'boolean' }, text: { type: 'boolean' }, 'include-user': { type: 'boolean' }, home: { type: 'string' },
    profile: { type: 'string' }, option: { type: 'string', multiple: true } }, 1);
  if (values.help) return io.out(`${EXPLAIN_HELP}\n`), EXIT.clean;
  const format = formatOption(values);
  const target = positionals[0];
  if (target === undefined) throw new UsageError('explain needs a PATH (see rulec explain --help)');
  const home = values['include-user'] ? resolve(io.cwd, str(values, 'home') ?? homedir()) : null;
  if (home && values.bundle) throw new UsageError('--include-user adds personal files, which no bundle holds: drop --bundle');
  const options = { ...compileOptionsFrom(values, io), userHome: home };
  const path = repoRelative(io, options.repoDir, target);
  const profile = str(values, 'profile');
  if (profile !== undefined) {
    const { explainProfile } = await import('./explain-profile.js');
    await explainProfile(io, options, { name: profile, path, format, text: values.text === true, options: (values.option as string[] | undefined) ?? [],
      home: resolve(io.cwd, str(values, 'home') ?? homedir()) });
    return EXIT.clean;
  }

  const answer = await answerFrom(values, options, io);
  const text = answer.textFor(path);
  // The context text alone needs only the path's variant: no listing, so no other part of a bundle is read.
  if (values.text && format !== 'json') return printContext(io, 'explain', text), EXIT.clean;
  const e = answer.explain(path);
  const present = inWorkTree(options.repoDir, path);
  // Everything but the context text itself is redacted; the context is the agent's input (printContext warns).
  const safe = redactDeep({ ...e, in_repository: present, origin: answer.origin, bundle_id: answer.bundleId }, answer.redactions);
  if (format === 'json') {
    io.out(`${jsonText(values.text ? { ...safe, text } : safe)}\n`);
    if (values.text) warnAboutSecrets(io, 'explain', text);
  } else {
    const notice = present ? undefined : 'not in the repository: this is what a new file at this path would get';
    io.out(redact(formatExplanation(escapeFields(safe), escapeFields(answer.originText), escapeFields(answer.localNotes(path)), notice), answer.redactions));
  }
  return EXIT.clean;
}

interface Answer {
  bundleId: string;
  explain(path: string): Explanation;
  /** Secrets of a fresh compile; a bundle's manifest was redacted when it was built. */
  redactions: Redactions;
  origin: 'bundle' | 'compiled';
  originText: string;
  /** The frozen standing-context text at a path. */
  textFor(path: string): string;
  localNotes(path: string): string[];
}

async function answerFrom(values: Record<string, unknown>, options: CompileOptions & { repoDir: string }, io: Io): Promise<Answer> {
  const explicit = typeof values.bundle === 'string' ? resolve(io.cwd, values.bundle) : null;
  if (explicit && values.fresh) throw new UsageError('--bundle and --fresh contradict each other: answer from a bundle, or compile on the fly');
  const dir = explicit ?? (!values.fresh && !options.userHome ? currentDir(options.repoDir) : null);
  if (dir !== null) {
    const bundle = openVerified(dir);
    if (explicit || (await isFresh(bundle, options))) {
      // Only the parts this path needs are read, each verified as it is (a tampered one refuses here).
      return {
        bundleId: bundle.bundleId, explain: (path) => verified(() => explainPath(bundle.lookup, path), dir),
        redactions: NO_REDACTIONS, origin: 'bundle', originText: `from bundle ${displayPath(io, dir)}`,
        textFor: (path) => verified(() => bundle.contextFor(path).text, dir), localNotes: () => [],
      };
    }
  }
  // Loaded only when the bundle cannot answer: the pipeline is most of the start-up cost.
  const [{ compileCounted }, { openBuildCache }] = await Promise.all([import('../../cache/cached-compile.js'), import('../../cache/build-cache.js')]);
  const cache = openBuildCache(options.repoDir, cacheWanted(values as Parsed['values']), false);
  const result = await compileCounted(options, cache);
  // explain prints no diagnostics: what the cache has to say goes to stderr.
  for (const n of cache.notes) io.err(`rulec: note ${n.code}: ${n.message}\n`);
  const texts = new Map(result.variants.map((v) => [v.id, v.text]));
  return {
    bundleId: result.manifest.bundle_id, explain: (path) => explainPath(result.manifest, path), redactions: result.redactions, origin: 'compiled', originText: 'compiled from the work tree',
    textFor: (path) => texts.get(variantFor(result.manifest.index, path)) ?? '',
    localNotes: (path) => result.discovered.localExcluded
      .filter((f) => { const d = dirnameOf(f); return d === '' || path === d || path.startsWith(`${d}/`); })
      .map((f) => `${f} — ${result.discovered.ignored.includes(f) && !classifyPath(f)?.spec.personal
        ? 'ignored by git (agents still load it; unreviewed, local layer)' : 'local (personal) file'}; pass --include-local to include it`),
  };
}

function openVerified(dir: string): OpenedBundle {
  return verified(() => openBundle(dir), dir);
}

/** A bundle that fails verification is a usage failure of this command (exit 2), never a crash. */
function verified<T>(read: () => T, dir: string): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof BundleError) throw new UsageError(`cannot use bundle ${dir}: ${e.message} (${e.code})`);
    throw e;
  }
}

/** The bundle is fresh when the same policy and the same instruction files (by digest) would be compiled now. */
async function isFresh(bundle: OpenedBundle, options: CompileOptions & { repoDir: string }): Promise<boolean> {
  const m = bundle.root;
  if (m.layers.local !== (options.includeLocal ?? false)) return false;
  // Loaded here, not at start-up: `--bundle DIR` never checks freshness, so it never needs them.
  const [{ loadPolicy }, { discover }] = await Promise.all([import('../../config/load-policy.js'), import('../../discover/discover.js')]);
  const { policy } = loadPolicy(options.repoDir, options.policyFile).value;
  if (policyDigest(policy) !== m.policy.digest) return false;
  const found = await discover({ repoDir: options.repoDir, managedDir: options.managedDir ?? null, includeLocal: options.includeLocal ?? false, policy });
  // Discovery lists instruction files only (imports are read later), so compare it
  // with the manifest's files that are not imports.
  const listed = Object.entries(verified(() => bundle.lookup.files(), bundle.dir)).filter(([, f]) => f.activation !== 'import');
  const now = new Map(found.value.files.map((f) => [f.id, `sha256:${sha256Hex(f.bytes)}`]));
  return now.size === listed.length && listed.every(([id, f]) => now.get(id) === f.sha256);
}

/**
 * The bundle directory `<repo>/bundles/current` names, or null when there is none. The pointer
 * is a file in the repository like any other input: read confined (a FIFO or a link out is
 * refused), and it must be one bundle id, so it can never lead out of bundles/.
 */
function currentDir(repoDir: string): string | null {
  const rel = `bundles/${CURRENT_POINTER}`;
  const read = readConfined(realpathSync(repoDir), rel, rel, 256);
  if (!read.ok && read.missing) return null;
  const id = read.ok ? parseCurrentPointer(Buffer.from(read.bytes).toString('utf8')) : null;
  if (id === null) throw new UsageError(`cannot use bundle: ${rel} ${read.ok ? 'does not hold a bundle id' : read.diagnostic.message}`);
  return join(repoDir, 'bundles', id);
}
