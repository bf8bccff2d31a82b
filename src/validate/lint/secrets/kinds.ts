/**
 * Credential shapes with a provider prefix (RC6001–RC6012, RC6015). The
 * reference is gitleaks' default rule set (github.com/gitleaks/gitleaks,
 * config/gitleaks.toml, generated from cmd/generate/config/rules/*.go); each
 * entry names the gitleaks rule id it ports. Where rulec differs (wider
 * length ranges, an extra placeholder check) the comment says why.
 *
 * Every regex starts with a literal, is bounded on both sides by a look-around
 * and uses bounded quantifiers, so matching is linear even on megabyte lines;
 * `keywords` (gitleaks' prefilter) skip the regex when the text cannot match.
 */
import { isPlaceholder, randomEnough, shannonEntropy } from './randomness.js';

export interface SecretKind {
  code: string;
  /** Rule name: the gitleaks rule id where the pattern is ported from one. */
  name: string;
  /** What the message calls it ("GitHub token"). */
  label: string;
  /** Lower-case literals, one of which must occur in the lower-cased text for the regex to run. */
  keywords: readonly string[];
  /** Global regex; with the `d` flag and a named group `secret`, that group is the secret material, else the whole match. */
  re: RegExp;
  /** How many leading characters of the secret material are a public prefix (shown in messages, kept when redacting). */
  prefix: number | ((secret: string) => number);
  /** Extra check on the secret material (placeholders, structure, entropy); `end` is where the match ends. */
  accept?: (secret: string, text: string, end: number, m: RegExpExecArray) => boolean;
  /** Extra words for the message, never derived from the secret part. */
  detail?: (match: string) => string;
  /** The whole message, for kinds recognised by context (`DB_PASSWORD is assigned …`); `shown` is the redacted value. */
  message?: (m: RegExpExecArray, shown: string) => string;
  /** What the diagnostic points at: the whole match (default) or only the secret material. */
  range?: 'match' | 'secret';
  /** Where the secret material really ends when it runs past the match (a private key's body). */
  extend?: (text: string, end: number) => number;
}

const gitlabPrefix = (v: string): number => (v.startsWith('GR1348941') ? 9 : v.search(/[-_]/) + 1);

const B = '(?<![A-Za-z0-9_-])';
const E = '(?![A-Za-z0-9_-])';
const token = (src: string, flags = 'g'): RegExp => new RegExp(`${B}(?:${src})${E}`, flags);

function base64UrlDecode(part: string): string | null {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const ch of part) {
    const v = alphabet.indexOf(ch);
    if (v === -1) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return out;
}

export function jwtAlg(tokenText: string): string | null {
  const header = base64UrlDecode(tokenText.slice(0, tokenText.indexOf('.')));
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
const MAX_KEY_BODY = 16384;

/** The key body runs to the END line (or, without one, to the next blank line). */
function keyBodyEnd(text: string, end: number): number {
  const window = text.slice(end, end + MAX_KEY_BODY);
  const close = window.indexOf('-----END');
  if (close !== -1) return end + close;
  const blank = window.search(/\n[ \t]*\n/);
  return end + (blank === -1 ? window.length : blank);
}

export const PROVIDER_KINDS: SecretKind[] = [
  // gitleaks aws-access-token. Older key ids also use 0, 1, 8, 9, so the body is [A-Z0-9]; the
  // documented example keys end in EXAMPLE (gitleaks allowlist `.+EXAMPLE$`).
  { code: 'RC6001', name: 'aws-access-key-id', label: 'AWS access key id', prefix: 4, keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    re: /(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    accept: (v) => !/EXAMPLE$/.test(v) && shannonEntropy(v) >= 3 },
  // The 40-character secret named by its key (gitleaks generic-api-key shape, AWS credential file names).
  { code: 'RC6002', name: 'aws-secret-access-key', label: 'AWS secret access key', prefix: 0, keywords: ['secret'],
    re: /(?<![A-Za-z0-9])aws_?secret_?(?:access_?)?key["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    accept: (v) => /\d/.test(v) && /[A-Za-z]/.test(v) && !/EXAMPLE/.test(v) && randomEnough(v, 3.2) },
  // gitleaks github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat.
  { code: 'RC6003', name: 'github-token', label: 'GitHub token', prefix: (v) => (v.startsWith('github_pat_') ? 11 : 4), keywords: ['gh', 'github_pat_'],
    re: token('gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}'),
    accept: (v) => randomEnough(v.slice(4)) },
  // gitleaks gitlab-pat, gitlab-pat-routable, gitlab-deploy-token, gitlab-runner-authentication-token,
  // gitlab-feed-token, gitlab-scim-token, gitlab-feature-flag-client-token, gitlab-incoming-mail-token,
  // gitlab-kubernetes-agent-token, gitlab-oauth-app-secret, gitlab-ptt, gitlab-cicd-job-token, gitlab-rrt.
  { code: 'RC6004', name: 'gitlab-token', label: 'GitLab token', prefix: gitlabPrefix, keywords: ['gl', 'gr1348941'],
    re: token('(?:glpat|gldt|glrt|glft|glsoat|glffct|glimt|glagent|gloas)-[A-Za-z0-9_.-]{20,300}|glptt-[0-9a-f]{40}|glcbt-[0-9a-zA-Z]{1,5}_[A-Za-z0-9_-]{20}|GR1348941[A-Za-z0-9_-]{20}'),
    accept: (v) => randomEnough(v.slice(gitlabPrefix(v))) },
  // gitleaks slack-bot-token, slack-user-token, slack-legacy-bot-token, slack-legacy-token,
  // slack-legacy-workspace-token, slack-app-token, slack-config-access-token, slack-config-refresh-token.
  // The numeric ids are not checked for placeholders (a real id may read 1234567890); only the random tail is.
  { code: 'RC6005', name: 'slack-token', label: 'Slack token', prefix: 5, keywords: ['xox', 'xapp-'],
    re: token([
      'xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9-]{1,250}',
      'xox[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9-]{28,34}',
      'xoxb-[0-9]{8,14}-[A-Za-z0-9]{18,26}',
      'xox[os]-[0-9]{1,20}-[0-9]{1,20}-[0-9]{1,20}-[A-Fa-f0-9]{1,128}',
      'xox[ar]-(?:[0-9]-)?[0-9A-Za-z]{8,48}',
      'xapp-[0-9]-[A-Za-z0-9]{1,40}-[0-9]{1,20}-[A-Za-z0-9]{1,128}',
      'xoxe\\.xox[bp]-[0-9]-[A-Za-z0-9]{163,166}',
      'xoxe-[0-9]-[A-Za-z0-9]{146}',
    ].join('|')),
    accept: (v) => randomEnough(v.slice(v.lastIndexOf('-') + 1), 2) && shannonEntropy(v) >= 3 },
  // gitleaks slack-webhook-url and microsoft-teams-webhook; Discord webhook URLs follow Discord's
  // documented form https://discord.com/api/webhooks/{webhook.id}/{webhook.token}.
  { code: 'RC6006', name: 'chat-webhook', label: 'chat webhook URL', keywords: ['hooks.slack.com', 'webhook'], prefix: 0,
    re: /(?<![A-Za-z0-9_-])(?<pre>(?:https?:\/\/)?(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/|(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/|[a-z0-9-]{1,63}\.webhook\.office\.com\/webhookb2\/))(?<secret>[A-Za-z0-9@/_+-]{20,300})/dg,
    accept: (v, _t, _e, m) => {
      const pre = m.groups?.pre ?? '';
      const shape = pre.includes('discord') ? /^[0-9]{17,20}\/[A-Za-z0-9_-]{60,100}$/ : pre.includes('office.com') ? /^.{60,}$/ : /^.{20,}$/;
      const last = v.slice(v.lastIndexOf('/') + 1);
      return shape.test(v) && randomEnough(last, 2.5) && /[a-z]/.test(last);
    },
    message: (m, shown) => {
      const pre = m.groups?.pre ?? '';
      const who = pre.includes('slack.com') ? 'Slack' : pre.includes('discord') ? 'Discord' : 'Microsoft Teams';
      return `chat webhook URL (${who}) ${pre}${shown} in an instruction file`;
    } },
  // gitleaks stripe-access-token, live and prod keys only: test keys (sk_test_…) appear in Stripe's own
  // documentation and grant no access to real payments.
  { code: 'RC6007', name: 'stripe-live-key', label: 'Stripe live key', prefix: 8, keywords: ['_live_', '_prod_'],
    re: token('(?:sk|rk)_(?:live|prod)_[A-Za-z0-9]{10,255}'),
    accept: (v) => randomEnough(v.slice(8)) },
  // gitleaks openai-api-key requires the T3BlbkFJ marker; rulec also reports project, service-account
  // and admin keys without it, and legacy keys of 32+ letters and digits that look random.
  { code: 'RC6008', name: 'openai-api-key', label: 'OpenAI API key', prefix: (v) => v.indexOf('-', 3) + 1 || 3, keywords: ['sk-'],
    re: token('sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,255}|sk-[A-Za-z0-9]{32,255}'),
    accept: (v) => v.includes('T3BlbkFJ') || (/\d/.test(v) && randomEnough(v.replace(/^sk-(?:proj-|svcacct-|admin-)?/, ''), 3.5)) },
  // gitleaks anthropic-api-key and anthropic-admin-api-key (sk-ant-api03-…AA, sk-ant-admin01-…AA), with any length.
  { code: 'RC6009', name: 'anthropic-api-key', label: 'Anthropic API key', prefix: 7, keywords: ['sk-ant-'],
    re: token('sk-ant-[A-Za-z0-9_-]{20,255}'),
    accept: (v) => randomEnough(v.replace(/^sk-ant-(?:api\d\d-|admin\d\d-)?/, ''), 3.5) },
  // gitleaks gcp-api-key.
  { code: 'RC6010', name: 'google-api-key', label: 'Google API key', prefix: 4, keywords: ['aiza'],
    re: token('AIza[0-9A-Za-z_-]{35}'),
    accept: (v) => randomEnough(v.slice(4), 3.5) },
  // gitleaks private-key: the BEGIN line, then key material up to the END line.
  { code: 'RC6011', name: 'private-key-block', label: 'private key block', prefix: 0, keywords: ['-----begin'],
    re: /-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
    accept: (_v, text, end) => KEY_BODY.test(text.slice(end, end + 800).replace(/\\n/g, '\n')),
    detail: (v) => v.replace(/^-+BEGIN |-+$/g, ''),
    extend: keyBodyEnd },
  // gitleaks jwt: rulec decodes the header and requires JSON with an "alg" field instead of an entropy floor.
  { code: 'RC6012', name: 'jwt', label: 'JSON Web Token', prefix: 3, keywords: ['eyj'],
    re: /(?<![A-Za-z0-9_.-])eyJ[A-Za-z0-9_-]{5,2048}\.[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{0,2048}(?![A-Za-z0-9_.-])/g,
    accept: (v) => jwtAlg(v) !== null,
    detail: (v) => `alg ${jwtAlg(v) ?? 'unknown'}` },
];

/** The RC6011 message never shows any part of the key; RC6002 shows no prefix. */
export function secretPrefix(kind: SecretKind, secret: string): number {
  return typeof kind.prefix === 'function' ? Math.max(0, kind.prefix(secret)) : kind.prefix;
}

export { isPlaceholder };
