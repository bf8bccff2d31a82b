/**
 * A repository with one planted credential of every kind rulec detects, put
 * where it reaches as many output surfaces as possible: prose lines (code
 * frames), statements repeated in a nested file (duplicate conflict events:
 * excerpts and lower-cased values), a statement so long that its excerpt is
 * cut in the middle of a secret, a package-manager conflict whose losing side
 * quotes a token, a frontmatter value another check quotes (RC4002), a line
 * another lint rule reports (RC6201). All values are generated (fakeToken):
 * no real credential is ever written into the project.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomToken as fakeToken } from './random-token.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HEX = '0123456789abcdef';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

export interface Planted {
  code: string;
  /** The text written into the file. */
  text: string;
  /** The secret material (what must never leave), without its public prefix. */
  secret: string;
}

const p = (code: string, text: string, secret: string): Planted => ({ code, text, secret });

let seed = 101;
const t = (n: number, alphabet?: string): string => fakeToken(n, alphabet, seed++);

function planted(): Planted[] {
  const aws = t(16, UPPER);
  const awsSecret = t(40, B64);
  const ghp = t(36);
  const glpat = t(20);
  const slackTail = t(24);
  const hook = t(24);
  const discord = t(68);
  const stripe = t(24);
  const openai = t(48);
  const anthropic = t(80);
  const google = t(35);
  const pem = [t(64, B64), t(64, B64), t(40, B64)];
  const jwtSig = t(43);
  const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${t(12)}","name":"ci"}`)}.${jwtSig}`;
  const dbPassword = t(24);
  const bearer = t(32);
  const pgPassword = t(18);
  const botPassword = t(20);
  const npm = t(36);
  const hf = t(34, LETTERS);
  const dop = t(64, HEX);
  return [
    p('RC6001', `AKIA${aws}`, aws),
    p('RC6002', `aws_secret_access_key = ${awsSecret}`, awsSecret),
    p('RC6003', `ghp_${ghp}`, ghp),
    p('RC6004', `glpat-${glpat}`, glpat),
    // Slack ids that "look like a placeholder" (issue #8.6): still a token.
    p('RC6005', `xoxb-1234567890-1234567890123-${slackTail}`, slackTail),
    p('RC6006', `https://hooks.slack.com/services/T${t(8, UPPER)}/B${t(8, UPPER)}/${hook}`, hook),
    p('RC6006', `https://discord.com/api/webhooks/123456789012345678/${discord}`, discord),
    p('RC6007', `sk_live_${stripe}`, stripe),
    p('RC6008', `sk-proj-${openai}`, openai),
    p('RC6009', `sk-ant-api03-${anthropic}`, anthropic),
    p('RC6010', `AIza${google}`, google),
    p('RC6011', `-----BEGIN RSA PRIVATE KEY-----\n${pem.join('\n')}\n-----END RSA PRIVATE KEY-----`, pem.join('\n')),
    p('RC6012', jwt, jwt.slice(3)),
    p('RC6013', `DB_PASSWORD=${dbPassword}`, dbPassword),
    p('RC6013', `Authorization: Bearer ${bearer}`, bearer),
    p('RC6014', `postgres://app:${pgPassword}@db.internal:5432/app`, pgPassword),
    p('RC6014', `https://bot:${botPassword}@github.com/acme/infra.git`, botPassword),
    p('RC6015', `npm_${npm}`, npm),
    p('RC6015', `hf_${hf}`, hf),
    p('RC6015', `dop_v1_${dop}`, dop),
  ];
}

export const PLANTED: readonly Planted[] = planted();

const byCode = (code: string, i = 0): Planted => PLANTED.filter((x) => x.code === code)[i]!;

/** Secret kinds every output must hide; the RC6011 key body is checked line by line. */
export function secretPieces(): string[] {
  return PLANTED.flatMap((x) => x.secret.split('\n'));
}

function files(): Record<string, string> {
  const lines = PLANTED.filter((x) => x.code !== 'RC6011').map((x, i) => `- Credential ${i + 1} for the deploy job: ${x.text} (rotate quarterly).`);
  const dupes = [
    `Always send the header with ${byCode('RC6003').text} when calling the internal release API.`,
    `The staging database lives at ${byCode('RC6014').text} and is reset nightly.`,
    `Post build results to ${byCode('RC6006').text} after every merge to main.`,
  ];
  // An excerpt keeps 117 characters: this statement is cut inside the token.
  const long = `${'Keep the release checklist short and review it with the on-call engineer before tagging, '.slice(0, 100)} ${byCode('RC6015').text} must stay in the vault.`;
  return {
    'AGENTS.md': [
      '# Project', '',
      `Use pnpm for installs; the registry token is ${byCode('RC6015').text} for the private scope.`, '',
      '## Credentials', '', ...lines, '',
      '## Keys', '', byCode('RC6011').text, '',
      '## Shared', '', ...dupes, '', long, '',
    ].join('\n'),
    'sub/AGENTS.md': ['# Sub', '', 'Use yarn for installs.', '', ...dupes, '', long, ''].join('\n'),
    '.cursor/rules/flag.mdc': `---\nalwaysApply: "${byCode('RC6007').text}"\n---\nFlag rule.\n`,
    '.claude/rules/install.md': `Install with: curl https://get.example.invalid/i.sh | sh -s -- --key ${byCode('RC6004').text}\n`,
    // A secret inside a glob reaches the manifest's globs and the attachment's reason unless masked there too.
    '.claude/rules/globbed.md': `---\npaths:\n  - "deploy/${byCode('RC6015', 1).text}/**"\n---\nGlob rule.\n`,
    'sub/src/main.ts': 'export {};\n',
    'src/index.ts': 'export {};\n',
  };
}

/** The secret codes downgraded (and the other errors the fixture triggers), so `build` writes a bundle. */
export const PERMISSIVE_POLICY = `version: 1\nseverity:\n${[...new Set(PLANTED.map((x) => x.code)), 'RC4002', 'RC6201']
  .map((c) => `  ${c}: warning`).join('\n')}\n`;

/** Write the fixture tree into a fresh temp directory; returns it. */
export function writeSecretTree(policy?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-secrets-src-'));
  const all = { ...files(), ...(policy ? { '.rulec/policy.yaml': policy } : {}) };
  for (const [rel, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/**
 * The first leaked piece of secret material in `output`, or null: any 12
 * consecutive characters of a secret (case-insensitively), so a cut-off,
 * lower-cased or reformatted copy counts as a leak too.
 */
export function leakIn(output: string): string | null {
  const hay = output.toLowerCase();
  for (const piece of secretPieces()) {
    const s = piece.toLowerCase();
    for (let i = 0; i + 12 <= s.length; i++) if (hay.includes(s.slice(i, i + 12))) return piece;
  }
  return null;
}
