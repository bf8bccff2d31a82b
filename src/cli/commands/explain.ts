/** `rulec explain PATH`: what an agent sees at a path, in order, and why. */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { CompileOptions } from '../../compile.js';
import { UsageError } from '../../util/errors.js';
import { formatExplanation } from '../../report/explain.js';
import { redact, redactDeep } from '../../diagnostics/redact.js';
import { escapeFields, jsonText } from '../../report/escape.js';
import { formatOption, parseCommandArgs, str, type Parsed } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { COMPILE_HELP, COMPILE_OPTIONS, compileOptionsFrom } from './shared.js';
import { repoRelative, workTreeEntry } from './repo-path.js';
import { bundleAnswer, openVerified, type Answer } from './explain-answer.js';

export const EXPLAIN_HELP = `Usage: rulec explain PATH [options]

Show the standing context an agent gets at PATH (a file or directory of the
repository): every source in render order with its layer, why it applies and
its tokens; the attachments whose globs match PATH; and what does not load
there and why. Answered from the repository's built bundle (<repo>/bundles/current)
when it is up to date with the work tree, otherwise compiled on the fly.

Options:
${COMPILE_HELP}
  --bundle DIR      answer from this bundle (a bundle directory, or a bundles directory such as
                    build's --out whose current names one; verified, no freshness check)
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
  if (profile === undefined && values.option !== undefined) throw new UsageError('--option sets an agent profile\'s option: it needs --profile NAME');
  if (profile !== undefined) {
    const { explainProfile } = await import('./explain-profile.js');
    await explainProfile(io, options, { name: profile, path, format, text: values.text === true, options: (values.option as string[] | undefined) ?? [],
      home: resolve(io.cwd, str(values, 'home') ?? homedir()) });
    return EXIT.clean;
  }

  const answer = await answerFrom(values, options, io);
  const text = answer.textFor(path);
  // The context text alone needs only the path's variant: no listing, so no other part of a bundle is read.
  if (values.text && format !== 'json') return (await import('./print-context.js')).printContext(io, 'explain', text), EXIT.clean;
  const entry = workTreeEntry(options.repoDir, path);
  const present = entry !== null;
  const e = answer.explain(path, entry === 'directory');
  // Everything but the context text itself is redacted; the context is the agent's input (printContext warns).
  const safe = redactDeep({ ...e, in_repository: present, origin: answer.origin, bundle_id: answer.bundleId }, answer.redactions);
  if (format === 'json') {
    // Two writes, not one concatenation: the megabytes jsonText returns reach stdout as they are.
    io.out(jsonText(values.text ? { ...safe, text } : safe));
    io.out('\n');
    if (values.text) (await import('./print-context.js')).warnAboutSecrets(io, 'explain', text);
  } else {
    const notice = present ? undefined : 'not in the repository: this is what a new file at this path would get';
    io.out(redact(formatExplanation(escapeFields(safe), escapeFields(answer.originText), escapeFields(answer.localNotes(path)), notice), answer.redactions));
  }
  return EXIT.clean;
}

/**
 * `--bundle DIR` answers from that bundle and loads nothing else; otherwise the work tree
 * decides (explain-worktree.ts, loaded only then): its current bundle when fresh, else a compile.
 */
async function answerFrom(values: Parsed['values'], options: CompileOptions & { repoDir: string }, io: Io): Promise<Answer> {
  const explicit = typeof values.bundle === 'string' ? resolve(io.cwd, values.bundle) : null;
  if (explicit && values.fresh) throw new UsageError('--bundle and --fresh contradict each other: answer from a bundle, or compile on the fly');
  if (explicit) return bundleAnswer(openVerified(explicit), io);
  return (await import('./explain-worktree.js')).workTreeAnswer(values, options, io);
}
