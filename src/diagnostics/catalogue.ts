/**
 * The code catalogue: every diagnostic code rulec can emit, with its default
 * severity, an optional standing hint and a one-paragraph explanation
 * (`rulec explain-code CODE`). Codes are grouped by stage and never reused:
 * RC1xxx discover, RC2xxx parse, RC3xxx resolve/conflict, RC4xxx schema,
 * RC5xxx budget, RC6xxx lint/security, RC7xxx registry, RC8xxx review and CI
 * (diff and check), RC9xxx internal.
 */
import type { CatalogueEntry } from './catalogue-entry.js';
import { LINT_CODES } from './catalogue-lint.js';
import { VALIDATE_CODES } from './catalogue-validate.js';
import { PROFILE_CODES } from './catalogue-profiles.js';
import { CONFLICT_CODES } from './catalogue-conflicts.js';
import { BUNDLE_CODES } from './catalogue-bundle.js';
import { DIFF_CODES } from './catalogue-diff.js';
import { REGISTRY_CODES } from './catalogue-registry.js';
import { CACHE_CODES } from './catalogue-cache.js';

export type { CatalogueEntry } from './catalogue-entry.js';

const CORE_CODES: CatalogueEntry[] = [
  { code: 'RC1001', severity: 'error', title: 'unreadable file',
    explanation: 'A file that discovery listed could not be read (permissions, a race with a delete, or an I/O error). The file is left out of the bundle and the build fails so nothing silently disappears.' },
  { code: 'RC1002', severity: 'error', title: 'symlink leaves its root',
    hint: 'replace the link with a copy, or point it at a file inside the repository',
    explanation: 'An instruction file or import resolves outside the root it was found in (the repository, the managed directory or the user directory): the file itself or one of the directories on its path is a symbolic link that leads out (a committed `docs -> /etc`, a directory replaced by a link). rulec resolves the real path of the whole path and never reads outside its root, so the file is not loaded.' },
  { code: 'RC1003', severity: 'warning', title: 'case-colliding paths',
    hint: 'rename one of the files; on macOS and Windows checkouts only one of them exists',
    explanation: 'Two tracked paths differ only in letter case (AGENTS.md and agents.md). On case-insensitive file systems only one survives a checkout, so agents on different machines load different text.' },
  { code: 'RC1004', severity: 'info', title: 'local files not included',
    hint: 'pass --include-local to include personal, unreviewed files',
    explanation: 'Personal files (CLAUDE.local.md, *.local.md rules) and instruction files that git ignores (agents do not read .gitignore, so they load them) exist in the work tree but are not part of this build. Bundles leave this local layer out unless --include-local is given, because these files are not reviewed and differ per machine. lint and explain --profile always check them.' },
  { code: 'RC1005', severity: 'error', title: 'broken symlink',
    explanation: 'An instruction file is a symbolic link whose target does not exist. The file is not loaded.' },
  { code: 'RC1006', severity: 'error', title: 'file too large to read',
    hint: 'split the file; agents skip or truncate files this large anyway',
    explanation: 'The file exceeds the hard read limit in the policy (discover.max_file_bytes). It is not loaded, so an accidental binary or generated file cannot blow up a build.' },
  { code: 'RC1007', severity: 'error', title: 'not a regular file',
    hint: 'commit the instructions as an ordinary text file',
    explanation: 'An instruction file or import is a named pipe, socket or device, or lives on a special file system such as /proc or /sys. Reading such a file can block forever, have side effects, or expose live process state (the environment of /proc/self/environ), so rulec never opens it.' },
  { code: 'RC1008', severity: 'error', title: 'path not in the repository',
    hint: 'check the spelling; paths are relative to the current directory',
    explanation: 'A PATH given to `rulec lint` names no file or directory of the repository. rulec reports it rather than answer "No problems found" about something it never checked.' },
  { code: 'RC1012', severity: 'error', title: 'secret in a path',
    hint: 'rename the file or directory, then remove the secret from the file and its git history, and revoke and rotate the credential',
    explanation: 'A secret the build detected (RC6001-RC6015) is also part of a path the bundle must list: a rule or imported file named after a token, or a directory so named. The manifest names files and directories by path, so a bundle could only hold that path with the secret in it, or masked and then wrong (a masked directory no longer matches the paths below it). No bundle is written; the path is shown masked.' },
  { code: 'RC2001', severity: 'error', title: 'invalid frontmatter YAML',
    explanation: 'The YAML frontmatter block at the top of the file could not be parsed. The body is still loaded, but the metadata (paths:, globs:, applyTo:, alwaysApply) is ignored, which can change when the rule applies.' },
  { code: 'RC2002', severity: 'error', title: 'frontmatter is not a mapping',
    hint: 'frontmatter must be key: value pairs between two --- lines',
    explanation: 'The frontmatter parsed as YAML but is a scalar or a list, not a mapping of keys to values, so no metadata can be read from it.' },
  { code: 'RC2003', severity: 'error', title: 'invalid UTF-8',
    hint: 're-save the file as UTF-8',
    explanation: 'The file contains bytes that are not valid UTF-8. rulec decodes them as U+FFFD so the rest is still checked, but agents differ in how they treat such bytes, so the text they see is not well defined.' },
  { code: 'RC2004', severity: 'error', title: 'unterminated frontmatter',
    hint: 'close the frontmatter with a line containing only ---',
    explanation: 'The file starts with a --- line but no closing --- line follows. rulec treats the whole file as body text.' },
  { code: 'RC2005', severity: 'error', title: 'duplicate frontmatter key',
    explanation: 'The same key appears twice in the frontmatter. YAML parsers disagree on which value wins (some keep the first, some the last, some refuse the file), so agents may scope the rule differently.' },
  { code: 'RC2006', severity: 'info', title: 'frontmatter read leniently',
    hint: 'quote glob values: globs: "*.ts"',
    explanation: 'A Cursor rule header is not valid YAML (typically an unquoted glob such as globs: *.ts, which YAML reads as an alias). Cursor reads such headers line by line, so rulec does the same; other tools that parse the header as YAML will fail on it.' },
  { code: 'RC2101', severity: 'warning', title: 'import not found',
    explanation: 'An @path import names a file that does not exist. Agents drop such imports silently, so the text the author meant to include is missing.' },
  { code: 'RC2102', severity: 'warning', title: 'import cycle',
    explanation: 'Following @ imports leads back to a file already on the import chain. rulec cuts the cycle at the repeated file; agents differ in where they cut it.' },
  { code: 'RC2103', severity: 'warning', title: 'import depth exceeded',
    hint: 'flatten the import chain or raise imports.max_depth in the policy',
    explanation: 'The import chain is deeper than the policy allows (imports.max_depth, default 4 like Claude Code). Files past the limit are not loaded.' },
  { code: 'RC2104', severity: 'error', title: 'import leaves its root',
    explanation: 'An @path import resolves outside the repository (or the managed/user root it belongs to). rulec never reads outside its roots, so the import is not loaded.' },
  { code: 'RC2105', severity: 'info', title: 'home-directory import not bundled',
    explanation: 'An @~/ import names a file in the user\'s home directory. It is personal and differs per machine, so it never enters a bundle; the agent on the author\'s machine may still load it.' },
  { code: 'RC2106', severity: 'error', title: 'too many imported files',
    hint: 'import fewer, larger files, or raise imports.max_files in the policy',
    explanation: 'Following @ imports would read more files than the policy allows in one build (imports.max_files, default 1000). Following stops at the import shown, so the bundle would miss text an agent loads; the build fails rather than write an incomplete bundle. The cap keeps a build\'s time and memory bounded whatever a repository imports.' },
  { code: 'RC2107', severity: 'warning', title: 'import path too long',
    explanation: 'An @ token is longer than any path the file system accepts (4,096 characters, or a name over 255 bytes). No agent can open it, so it is reported and not followed; its length never drives rulec\'s work.' },
  { code: 'RC3001', severity: 'error', title: 'invalid glob',
    explanation: 'A paths:, globs: or applyTo: pattern cannot be parsed, or cannot be matched safely: a glob with brackets, extglobs, quotes, escapes, a range or a leading ! or ./ may hold at most two wildcards (matching more can take exponential time; plain globs of names, *, ?, ** and {a,b} may have any number). The rule is not attached anywhere.' },
  { code: 'RC3002', severity: 'warning', title: 'glob matches no tracked file',
    hint: 'fix the pattern or delete the rule',
    explanation: 'A glob-scoped rule matches no tracked path, so it never loads. Usually a typo, a renamed directory, or a pattern relative to the wrong directory.' },
  { code: 'RC3004', severity: 'info', title: 'one glob of a rule matches no file',
    explanation: 'A rule with several globs still loads through the ones that match, but one of them matches no tracked path. Often deliberate (listing both *.yml and *.yaml); sometimes a typo worth fixing.' },
  { code: 'RC3003', severity: 'info', title: 'override shadows AGENTS.md (retired: now RC3102)',
    explanation: 'Retired. A shadowing AGENTS.override.md is now reported as a shadow conflict event, RC3102. Codes are never reused.' },
  { code: 'RC4001', severity: 'error', title: 'invalid policy',
    explanation: 'The policy file is not plain YAML data (mappings, lists and scalars, with no value that contains itself and at most 10,000 values through aliases) or does not match schemas/policy.schema.json. The build stops with exit code 2 because a wrong policy would change what every path loads.' },
  { code: 'RC4002', severity: 'error', title: 'invalid frontmatter value',
    explanation: 'A frontmatter key has a value of the wrong type or shape for this file format (see schemas/frontmatter-*.schema.json).' },
  { code: 'RC4003', severity: 'warning', title: 'unknown frontmatter key',
    explanation: 'The frontmatter has a key this file format does not define. Agents ignore it; it is often a typo of a real key (path: for paths:).' },
  { code: 'RC5001', severity: 'warning', title: 'variant over token budget',
    explanation: 'The standing context of a variant (what an agent loads at session start for a set of paths) is larger than budgets.variant_tokens in the policy. The largest contributors are listed.' },
  { code: 'RC5002', severity: 'warning', title: 'attachment over token budget',
    explanation: 'A lazily attached rule (with its imports) is larger than budgets.attachment_tokens in the policy.' },
  { code: 'RC5003', severity: 'warning', title: 'file over byte limit',
    explanation: 'An instruction file is larger than budgets.file_bytes in the policy.' },
  { code: 'RC9001', severity: 'error', title: 'internal error',
    explanation: 'rulec hit a bug. Please report it with the command line and, if possible, the repository layout.' },
];

const CATALOGUE = new Map<string, CatalogueEntry>();
for (const entry of [...CORE_CODES, ...CACHE_CODES, ...LINT_CODES, ...VALIDATE_CODES, ...PROFILE_CODES, ...CONFLICT_CODES, ...BUNDLE_CODES, ...REGISTRY_CODES, ...DIFF_CODES]) {
  if (CATALOGUE.has(entry.code)) throw new Error(`duplicate diagnostic code ${entry.code}`);
  CATALOGUE.set(entry.code, entry);
}

export function catalogueEntry(code: string): CatalogueEntry {
  const entry = CATALOGUE.get(code);
  if (!entry) throw new Error(`unknown diagnostic code ${code}`);
  return entry;
}

export function findCatalogueEntry(code: string): CatalogueEntry | undefined {
  return CATALOGUE.get(code.toUpperCase());
}

export function allCatalogueEntries(): CatalogueEntry[] {
  return [...CATALOGUE.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
