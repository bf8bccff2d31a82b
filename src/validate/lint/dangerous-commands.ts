/**
 * Dangerous commands (RC62xx): instructions that tell an agent to run or write
 * something that can destroy data, weaken security or bypass review. Agents
 * copy commands from their context verbatim, so a fenced `curl … | sh` counts
 * as much as prose; matches inside code are reported too.
 *
 * Mentions that forbid the action ("never use --no-verify", "force-pushing to
 * main is not allowed") are skipped (see negation.ts). Piping a download into
 * a shell is an error; an edit of CI configuration is an info (it lands in a
 * reviewed change); the rest are warnings worth a reviewer's look.
 * Every pattern is anchored on a literal and uses bounded repetition only.
 */
import type { LintRule } from './types.js';
import { CI_CONFIG_SOURCE } from './ci-config.js';
import { isForbidden } from './negation.js';
import { patternRules, type Pattern as PatternBase } from './pattern-rule.js';
import { lineBounds, type TextIndex } from './text-index.js';

interface Pattern extends PatternBase {
  /** Extra test on the match; return false to skip it. */
  accept?: (m: RegExpExecArray, index: TextIndex) => boolean;
}

const SHELL = '(?:(?:ba|z|k|da|fi)?sh|python[0-9.]{0,4}|node|perl|ruby|php)';
const SUDO = '(?:sudo[ \\t]{1,8}(?:-\\S{1,20}[ \\t]{1,8}){0,3})?';
const PS_DOWNLOAD = '(?:irm|iwr|Invoke-RestMethod|Invoke-WebRequest|\\(?New-Object[ \\t]{1,8}(?:System\\.)?Net\\.WebClient)';

const PIPE_TO_SHELL: Pattern[] = [
  { what: 'a download piped into a shell',
    re: new RegExp(`\\b(?:curl|wget)\\b[^\\n|]{0,300}\\|[ \\t]{0,8}${SUDO}${SHELL}\\b`, 'g') },
  { what: 'a shell running a downloaded script',
    re: new RegExp(`\\b${SUDO}${SHELL}[ \\t]{1,8}(?:-c[ \\t]{1,8})?["']?(?:\\$\\(|<\\()[ \\t]{0,8}(?:curl|wget)\\b`, 'g') },
  { what: 'a download piped into Invoke-Expression',
    re: new RegExp(`\\b(?:irm|iwr|Invoke-RestMethod|Invoke-WebRequest)\\b[^\\n|]{0,300}\\|[ \\t]{0,8}(?:iex|Invoke-Expression)\\b`, 'gi') },
  { what: 'Invoke-Expression on a download',
    re: new RegExp(`\\b(?:iex|Invoke-Expression)\\b[ \\t]{0,8}[("&]{0,3}[ \\t]{0,8}${PS_DOWNLOAD}`, 'gi') },
];

const RECURSIVE = /(?:^|\s)-[a-zA-Z]*[rR]|--recursive/;
const RM_RF: Pattern[] = [
  { what: 'recursive delete of a broad path',
    re: /\brm[ \t]{1,8}((?:(?:-[a-zA-Z]{1,8}|--[a-z-]{2,20})[ \t]{1,8}){1,4})["']?(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?|\*|\.{1,2}\/?\*?)["']?(?=[\s;&|)`]|$)/g,
    accept: (m) => RECURSIVE.test(` ${m[1]!}`) },
];

const CHMOD: Pattern[] = [
  { what: 'world-writable permissions',
    re: /\bchmod[ \t]{1,8}(?:-[a-zA-Z]{1,4}[ \t]{1,8}){0,3}(?:0?777|a\+rwx|ugo\+rwx)(?![0-9A-Za-z])/g },
];

const TLS: Pattern[] = [
  { what: 'NODE_TLS_REJECT_UNAUTHORIZED=0', re: /\bNODE_TLS_REJECT_UNAUTHORIZED[ \t]{0,4}[=:][ \t]{0,4}["']?0\b/g },
  { what: 'curl without certificate checks',
    re: /\bcurl\b[^\n|;&]{0,300}?[ \t](?:--insecure|-[a-zA-Z]{0,8}k[a-zA-Z]{0,8})(?=[\s"'`]|$)/g },
  { what: 'wget without certificate checks', re: /\bwget\b[^\n|;&]{0,300}?[ \t]--no-check-certificate\b/g },
  { what: 'verify=False', re: /\bverify[ \t]{0,4}=[ \t]{0,4}False\b/g },
  { what: 'GIT_SSL_NO_VERIFY', re: /\bGIT_SSL_NO_VERIFY[ \t]{0,4}=[ \t]{0,4}["']?(?:1|true|yes)\b/gi },
  { what: 'git http.sslVerify false', re: /\bhttp\.sslVerify[ \t]{0,4}[= ][ \t]{0,4}["']?false\b/gi },
  { what: 'strict-ssl false', re: /\bstrict[-_]?ssl[ \t]{0,4}[= ][ \t]{0,4}["']?false\b/gi },
  { what: 'rejectUnauthorized: false', re: /\brejectUnauthorized[ \t]{0,4}[:=][ \t]{0,4}false\b/g },
  { what: 'InsecureSkipVerify: true', re: /\bInsecureSkipVerify[ \t]{0,4}[:=][ \t]{0,4}true\b/g },
  { what: 'PYTHONHTTPSVERIFY=0', re: /\bPYTHONHTTPSVERIFY[ \t]{0,4}=[ \t]{0,4}["']?0\b/g },
  { what: '-SkipCertificateCheck', re: /(?<![\w-])-SkipCertificateCheck\b/gi },
];

const FORCE_FLAG = /(?:^|\s)(?:--force(?:-with-lease)?(?:=\S*)?|-[a-zA-Z]*f[a-zA-Z]*)(?=\s|$)/;
const PROTECTED = /(?:^|[\s:+/])(?:main|master|release(?:[-/][\w.-]*)?|production|trunk)(?=\s|$|["'`])|(?:^|\s)\+\S/;
const FORCE_PUSH: Pattern[] = [
  { what: 'force-push to a protected branch',
    re: /\bgit[ \t]{1,8}push\b[^\n;&|`]{0,200}/g,
    accept: (m) => FORCE_FLAG.test(m[0].slice(8)) && PROTECTED.test(m[0].slice(8)) },
  { what: 'force-push to a protected branch',
    re: /\bforce[- ]?push(?:ing|es|ed)?\b[^\n.;]{0,40}?\b(?:to|on|onto)[ \t]{1,8}(?:the[ \t]{1,8})?[`'"]?(?:main|master|release|production|trunk)\b/gi },
];

const SKIP_CHECKS: Pattern[] = [
  { what: '--no-verify', re: /(?<![\w-])--no-verify\b/g },
  { what: 'HUSKY=0', re: /\bHUSKY[ \t]{0,4}=[ \t]{0,4}["']?0\b/g },
  { what: 'HUSKY_SKIP_HOOKS', re: /\bHUSKY_SKIP_HOOKS[ \t]{0,4}=[ \t]{0,4}["']?(?:1|true)\b/g },
  { what: '-DskipTests', re: /(?<![\w-])-D(?:skipTests|maven\.test\.skip=true)\b/g },
  { what: 'skipping tests or hooks',
    re: /\bskip(?:ping)?[ \t]{1,8}(?:the[ \t]{1,8}|all[ \t]{1,8}(?:the[ \t]{1,8})?)?(?:tests|test[ \t]suite|pre-commit(?:[ \t]hooks?)?|git[ \t]hooks|hooks|CI|checks)\b/gi },
];

const CI_TARGET = new RegExp(CI_CONFIG_SOURCE, 'g');
const CREDENTIAL_TARGET =
  /(?<![\w.-])\.env(?:\.(?!example|sample|template|dist|defaults)[A-Za-z][\w-]{0,20})?(?![\w.-]*\.(?:example|sample|template))(?![\w-])|(?:~|\$HOME|\$\{HOME\})\/\.(?:aws\/(?:credentials|config)|ssh|netrc|npmrc|pypirc|docker\/config\.json|kube\/config|git-credentials)\b|\bauthorized_keys\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b/g;
// A verb as a word of prose, not part of a file name like `update-gyp.yml`.
const EDIT_VERB =
  /(?<![\w./-])(?:edit|modify|change|update|rewrite|overwrite|write|add|append|delete|remove|replace|disable|commit|push|cat|read|print|copy|upload|send|paste|create|patch)(?:s|es|ed|ing)?(?![\w./-])/i;

// A verb that makes the path the subject or object of something other than an edit.
const DESCRIBING_VERB = /(?<![\w./-])(?:trigger|run|invoke|call|start|execute|kick|fire|live)(?:s|es|ed|ing)?(?![\w./-])|(?<![\w./-])(?:is|are|was|were)(?![\w./-])/i;

/** Index of the last match of `re` (no `g` flag) in `text`, or -1. */
function lastMatch(re: RegExp, text: string): number {
  const global = new RegExp(re.source, `${re.flags}g`);
  let at = -1;
  for (const m of text.matchAll(global)) at = m.index;
  return at;
}

/** Whether the clause before the path has an editing verb whose object it is. */
function edited(m: RegExpExecArray, index: TextIndex): boolean {
  const [lineStart] = lineBounds(index, m.index);
  const before = index.text.slice(Math.max(lineStart, m.index - 120), m.index);
  const clause = before.slice(Math.max(...['.', '!', '?', ';', '|'].map((p) => before.lastIndexOf(p + ' ')), 0));
  const verb = lastMatch(EDIT_VERB, clause);
  // "Pushing a bump to main triggers .github/workflows/release.yml": the path is what another verb does, not what is edited.
  return verb >= 0 && !DESCRIBING_VERB.test(clause.slice(verb));
}

// Credentials are read or sent while the agent runs, where no reviewer sees it; a CI edit lands in
// a change that is reviewed before it runs (and rulec check's `ci-config` row asks for that review
// when an instruction to make one is added).
const CREDENTIALS: Pattern[] = [{ what: 'editing or reading credentials', re: CREDENTIAL_TARGET, accept: edited }];
const CI_CONFIG: Pattern[] = [{ what: 'editing CI configuration', re: CI_TARGET, accept: edited }];

/** The matched command, shortened for the message, with token-like words masked. */
function excerpt(s: string): string {
  const t = s.trim().replace(/\s+/g, ' ')
    .replace(/[A-Za-z0-9_-]{20,}/g, (w) => (/\d/.test(w) && /[A-Za-z]/.test(w) ? '…' : w));
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}

export const DANGEROUS_COMMAND_RULES: LintRule[] = patternRules<Pattern>({
  end: (m) => m.index + m[0].trimEnd().length,
  keep: (p, m, index, end) => (!p.accept || p.accept(m, index)) && !isForbidden(index, m.index, end),
  shown: (m) => excerpt(m[0]),
}, [
  ['RC6201', 'download-piped-to-shell', PIPE_TO_SHELL],
  ['RC6202', 'broad-recursive-delete', RM_RF],
  ['RC6203', 'world-writable-chmod', CHMOD],
  ['RC6204', 'tls-verification-disabled', TLS],
  ['RC6205', 'force-push-protected-branch', FORCE_PUSH],
  ['RC6206', 'skipped-hooks-or-tests', SKIP_CHECKS],
  ['RC6207', 'edits-credentials', CREDENTIALS],
  ['RC6208', 'edits-ci-config', CI_CONFIG],
]);
