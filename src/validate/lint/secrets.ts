/**
 * Secrets (RC60xx): credentials pasted into an instruction file. These files
 * are committed, compiled into bundles and injected into every agent session,
 * so a token in one is leaked to every model provider and log that sees the
 * context. Each provider's key shape gets its own code; a final rule catches
 * `password=` / `api_key:` style assignments whose value looks random.
 *
 * Matching runs on the whole text (frontmatter and code blocks included).
 * Messages never contain the secret: only a short public prefix and a length.
 * Every pattern starts with a literal anchored by a look-behind and uses
 * bounded quantifiers, so matching stays linear on megabyte-long lines.
 */
import type { LintInput, LintRule } from '../lint-rules.js';
import { diag, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { matchesOf, spanOf, textIndexOf } from './text-index.js';

interface SecretKind {
  code: string;
  name: string;
  label: string;
  re: RegExp;
  /** How many leading characters are a public, non-secret prefix. */
  prefix: number | ((value: string) => number);
  /** Extra check on the matched value (placeholders, structure). */
  accept?: (value: string, text: string, end: number) => boolean;
  /** Extra words for the message (never derived from the secret part). */
  detail?: (value: string) => string;
}

const PLACEHOLDER =
  /x{3,}|\.{3}|…|<[^>]*>|\$\{|\{\{|^\$|%s|change_?me|example|sample|placeholder|dummy|fake|redacted|your|insert|replace|\*{3}|0{6}|123456/i;

/** Shannon entropy of a string, in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const n = [...value].length;
  for (const c of counts.values()) bits -= (c / n) * Math.log2(c / n);
  return bits;
}

/** Random-looking: letters and digits mixed, high entropy, not a placeholder. */
function looksRandom(value: string): boolean {
  return /\d/.test(value) && /[A-Za-z]/.test(value) && !PLACEHOLDER.test(value) &&
    shannonEntropy(value) >= 3.2;
}

/** `AKIA…(20 chars)`: the public prefix, an ellipsis and the length. */
export function redact(value: string, prefix: number): string {
  return `${value.slice(0, Math.min(prefix, Math.floor(value.length / 3)))}…(${value.length} chars)`;
}

function base64UrlDecode(part: string): string | null {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const ch of part) {
    const v = alphabet.indexOf(ch);
    if (v === -1) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return out;
}

function jwtAlg(token: string): string | null {
  const header = base64UrlDecode(token.slice(0, token.indexOf('.')));
  if (header === null) return null;
  try {
    const parsed: unknown = JSON.parse(header);
    if (parsed && typeof parsed === 'object' && 'alg' in parsed) {
      const alg = (parsed as { alg: unknown }).alg;
      return typeof alg === 'string' && /^[A-Za-z0-9]{1,16}$/.test(alg) ? alg : 'unknown';
    }
  } catch {
    return null;
  }
  return null;
}

// A real key block: the BEGIN line, optional PEM headers, then base64 (also
// inside a JSON string with literal \n). "-----BEGIN … KEY-----\n...\n" is an illustration.
const KEY_BODY = /^[ \t"]*\n(?:[^\n]{0,100}:[^\n]{0,200}\n){0,4}\s{0,8}[A-Za-z0-9+/=]{40}/;

const TOKEN_BEFORE = '(?<![A-Za-z0-9_-])';

const KINDS: SecretKind[] = [
  { code: 'RC6001', name: 'aws-access-key-id', label: 'AWS access key id', prefix: 4,
    re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    accept: (v) => !/EXAMPLE/.test(v) },
  { code: 'RC6002', name: 'aws-secret-access-key', label: 'AWS secret access key', prefix: 0,
    re: /(?<![A-Za-z0-9])aws_?secret_?(?:access_?)?key["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    accept: (v) => looksRandom(v.slice(-40)) },
  { code: 'RC6003', name: 'github-token', label: 'GitHub token', prefix: (v) => (v.startsWith('github_pat_') ? 11 : 4),
    re: new RegExp(`${TOKEN_BEFORE}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])`, 'g'),
    accept: (v) => looksRandom(v.slice(4)) },
  { code: 'RC6004', name: 'gitlab-token', label: 'GitLab token', prefix: 6,
    re: new RegExp(`${TOKEN_BEFORE}glpat-[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])`, 'g'),
    accept: (v) => looksRandom(v.slice(6)) },
  { code: 'RC6005', name: 'slack-token', label: 'Slack token', prefix: 5,
    re: new RegExp(`${TOKEN_BEFORE}xox[abprs]-[0-9]{6,20}-[A-Za-z0-9-]{8,255}(?![A-Za-z0-9-])`, 'g'),
    accept: (v) => !PLACEHOLDER.test(v) },
  { code: 'RC6006', name: 'slack-webhook', label: 'Slack webhook URL', prefix: 23,
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,255}/g,
    accept: (v) => !PLACEHOLDER.test(v.slice(23)) && /[a-z]/.test(v.slice(23)) },
  { code: 'RC6007', name: 'stripe-live-key', label: 'Stripe live key', prefix: 8,
    re: new RegExp(`${TOKEN_BEFORE}(?:sk|rk)_live_[A-Za-z0-9]{10,255}(?![A-Za-z0-9])`, 'g'),
    accept: (v) => looksRandom(v.slice(8)) },
  { code: 'RC6008', name: 'openai-api-key', label: 'OpenAI API key', prefix: (v) => (v.startsWith('sk-proj-') ? 8 : 3),
    re: new RegExp(`${TOKEN_BEFORE}sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])`, 'g'),
    accept: (v) => looksRandom(v.replace(/^sk-(?:proj-|svcacct-|admin-)?/, '')) },
  { code: 'RC6009', name: 'anthropic-api-key', label: 'Anthropic API key', prefix: 7,
    re: new RegExp(`${TOKEN_BEFORE}sk-ant-[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])`, 'g'),
    accept: (v) => looksRandom(v.slice(7)) },
  { code: 'RC6010', name: 'google-api-key', label: 'Google API key', prefix: 4,
    re: new RegExp(`${TOKEN_BEFORE}AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])`, 'g'),
    accept: (v) => !PLACEHOLDER.test(v.slice(4)) },
  { code: 'RC6011', name: 'private-key-block', label: 'private key block', prefix: 0,
    re: /-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
    accept: (_v, text, end) => KEY_BODY.test(text.slice(end, end + 800).replace(/\\n/g, '\n')),
    detail: (v) => v.replace(/^-+BEGIN |-+$/g, '') },
  { code: 'RC6012', name: 'jwt', label: 'JSON Web Token', prefix: 3,
    re: /(?<![A-Za-z0-9_.-])eyJ[A-Za-z0-9_-]{5,2048}\.[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{0,2048}(?![A-Za-z0-9_.-])/g,
    accept: (v) => jwtAlg(v) !== null,
    detail: (v) => `alg ${jwtAlg(v) ?? 'unknown'}` },
];

function checkKind(kind: SecretKind, { file, doc }: LintInput): Diagnostic[] {
  const index = textIndexOf(doc);
  const out: Diagnostic[] = [];
  for (const m of matchesOf(kind.re, doc.text)) {
    const value = m[0];
    const end = m.index + value.length;
    if (kind.accept && !kind.accept(value, doc.text, end)) continue;
    const prefix = typeof kind.prefix === 'function' ? kind.prefix(value) : kind.prefix;
    const shown = kind.code === 'RC6011' ? '' : ` ${kind.code === 'RC6002' ? redact(value.slice(-40), 0) : redact(value, prefix)}`;
    const detail = kind.detail ? ` (${kind.detail(value)})` : '';
    out.push(diag(kind.code, {
      file: file.id,
      range: spanOf(index, m.index, end),
      message: `${kind.label}${detail}${shown} in an instruction file`,
    }));
  }
  return out;
}

// An identifier ending in a secret-ish word, then = or :, then a value.
const ASSIGNMENT =
  /(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9_.-]{0,63})["']?[ \t]{0,8}(?::|=|:=)[ \t]{0,8}(["'`]?)([^\s"'`,;)}\]]{8,256})/g;
const SECRET_NAME = /(?:pass(?:word|wd)?|pwd|api[_-]?key|apikey|secret(?:[_-]?key)?|(?:access|auth|api|bearer|refresh)?[_-]?token)$/i;
const CODE_REFERENCE = /\benv\b|environ|getenv|secrets\.|vault|keyring|process\.|os\.|\(|\[/i;

/** Generic `password=…` / `api_key: …` with a random-looking value. */
function checkAssignments({ file, doc }: LintInput): Diagnostic[] {
  const index = textIndexOf(doc);
  const out: Diagnostic[] = [];
  for (const m of matchesOf(ASSIGNMENT, doc.text)) {
    const name = m[1]!;
    const value = m[3]!;
    if (!SECRET_NAME.test(name) || value.length < 12 || CODE_REFERENCE.test(value)) continue;
    if (!looksRandom(value)) continue;
    const start = m.index + m[0].length - value.length;
    out.push(diag('RC6013', {
      file: file.id,
      range: spanOf(index, start, start + value.length),
      message: `${name} is assigned a secret-looking value ${redact(value, 0)}`,
    }));
  }
  return out;
}

export const SECRET_RULES: LintRule[] = [
  ...KINDS.map((kind): LintRule => ({
    code: kind.code,
    name: kind.name,
    check: (input) => checkKind(kind, input),
  })),
  { code: 'RC6013', name: 'secret-assignment', check: checkAssignments },
];
