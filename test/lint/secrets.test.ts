import { describe, expect, it } from 'vitest';
import { SECRET_RULES, secretLabel, shannonEntropy } from '../../src/validate/lint/secrets.js';
import { fakeToken, findings } from './lint-input.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64url = (s: string) => Buffer.from(s).toString('base64url');

const awsId = `AKIA${fakeToken(16, UPPER)}`;
const awsSecret = fakeToken(40, B64);
const ghp = `ghp_${fakeToken(36)}`;
const pat = `github_pat_${fakeToken(22)}_${fakeToken(59, undefined, 3)}`;
const glpat = `glpat-${fakeToken(20)}`;
const slack = `xoxb-${fakeToken(12, '0123456789')}-${fakeToken(24)}`;
const hook = `https://hooks.slack.com/services/T${fakeToken(8, UPPER)}/B${fakeToken(8, UPPER)}/${fakeToken(24)}`;
const stripe = `sk_live_${fakeToken(24)}`;
const openai = `sk-proj-${fakeToken(48)}`;
const anthropic = `sk-ant-api03-${fakeToken(80)}`;
const google = `AIza${fakeToken(35)}`;
const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url('{"sub":"1234567890"}')}.${fakeToken(43)}`;
const pem = `-----BEGIN RSA PRIVATE KEY-----\n${fakeToken(64, B64)}\n-----END RSA PRIVATE KEY-----`;
const generic = fakeToken(24);

describe('secrets', () => {
  const cases: [string, string, ReturnType<typeof findings>][] = [
    ['AWS access key id', `key: ${awsId}\n`,
      [{ code: 'RC6001', severity: 'error', at: '1:6-1:26', message: 'AWS access key id AKIA…(20 chars) in an instruction file' }]],
    ['AWS secret assignment', `aws_secret_access_key = ${awsSecret}`,
      [{ code: 'RC6002', severity: 'error', at: '1:1-1:65', message: 'AWS secret access key …(40 chars) in an instruction file' }]],
    ['GitHub classic token inside a code block', `\`\`\`sh\nexport GH=${ghp}\n\`\`\``,
      [{ code: 'RC6003', severity: 'error', at: '2:11-2:51', message: 'GitHub token ghp_…(40 chars) in an instruction file' }]],
    ['GitHub fine-grained token', `token ${pat}`,
      [{ code: 'RC6003', severity: 'error', at: '1:7-1:100', message: 'GitHub token github_pat_…(93 chars) in an instruction file' }]],
    ['GitLab token', `${glpat}`,
      [{ code: 'RC6004', severity: 'error', at: '1:1-1:27', message: 'GitLab token glpat-…(26 chars) in an instruction file' }]],
    ['Slack token', `slack ${slack}`,
      [{ code: 'RC6005', severity: 'error', at: '1:7-1:49', message: 'Slack token xoxb-…(42 chars) in an instruction file' }]],
    ['Slack webhook', `post to ${hook}`,
      [{ code: 'RC6006', severity: 'error', at: '1:9-1:86', message: 'chat webhook URL (Slack) https://hooks.slack.com/services/…(44 chars) in an instruction file' }]],
    ['Stripe live key', stripe,
      [{ code: 'RC6007', severity: 'error', at: '1:1-1:33', message: 'Stripe live key sk_live_…(32 chars) in an instruction file' }]],
    ['OpenAI project key', `OPENAI=${openai}`,
      [{ code: 'RC6008', severity: 'error', at: '1:8-1:64', message: 'OpenAI API key sk-proj-…(56 chars) in an instruction file' }]],
    ['Anthropic key is not also an OpenAI key', anthropic,
      [{ code: 'RC6009', severity: 'error', at: '1:1-1:94', message: 'Anthropic API key sk-ant-…(93 chars) in an instruction file' }]],
    ['Google API key', `"${google}"`,
      [{ code: 'RC6010', severity: 'error', at: '1:2-1:41', message: 'Google API key AIza…(39 chars) in an instruction file' }]],
    ['private key block', `# keys\n${pem}\n`,
      [{ code: 'RC6011', severity: 'error', at: '2:1-2:32', message: 'private key block (RSA PRIVATE KEY) in an instruction file' }]],
    ['JWT', `Authorization: Bearer ${jwt}`,
      [{ code: 'RC6012', severity: 'error', at: `1:23-1:${23 + jwt.length}`, message: `JSON Web Token (alg HS256) eyJ…(${jwt.length} chars) in an instruction file` }]],
    ['generic password with a random value', `DB_PASSWORD=${generic}`,
      [{ code: 'RC6013', severity: 'error', at: '1:13-1:37', message: 'DB_PASSWORD is assigned a secret-looking value …(24 chars)' }]],
    ['generic api_key in YAML, quoted', `api_key: "${generic}"`,
      [{ code: 'RC6013', severity: 'error', at: '1:11-1:35', message: 'api_key is assigned a secret-looking value …(24 chars)' }]],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(findings(SECRET_RULES, text)).toEqual(expected);
  });

  const quiet: [string, string][] = [
    ['AWS documented example key', 'AKIAIOSFODNN7EXAMPLE'],
    ['AWS documented example secret', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['placeholder token', 'GITHUB_TOKEN=<your-token>'],
    ['xxx placeholder', 'api_key: xxxxxxxxxxxxxxxxxxxx'],
    ['env var reference', 'token=${GITHUB_TOKEN}'],
    ['shell var reference', 'password=$DB_PASSWORD_FROM_VAULT1'],
    ['changeme', 'password: changeme12345678'],
    ['example', 'secret: example-secret-123456'],
    ['ellipsis', 'token=ghp_...'],
    ['OpenAI placeholder', 'OPENAI_API_KEY=sk-your-openai-api-key-here'],
    ['OpenAI ellipsis', 'export OPENAI_API_KEY=sk-...'],
    ['low entropy value', 'password=aaaaaaaaaaaa1111'],
    ['code reference', 'apiKey: process.env.OPENAI_API_KEY_2'],
    ['secrets store reference', 'token: ${{ secrets.NPM_TOKEN }}'],
    ['key format illustration', '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----'],
    ['eyJ-looking but not a JWT', 'eyJhbGciOi.notjson.x'],
    ['max_tokens is not a secret', 'max_tokens: 4096'],
    ['prose about secrets', 'Never commit secrets, tokens or passwords.'],
  ];
  it.each(quiet)('quiet: %s', (_name, text) => {
    expect(findings(SECRET_RULES, text)).toEqual([]);
  });

  it('never puts the secret in the message', () => {
    const text = [awsId, ghp, glpat, slack, hook, stripe, openai, anthropic, google, jwt, `password=${generic}`].join('\n');
    const messages = findings(SECRET_RULES, text).map((f) => f.message).join('\n');
    for (const secret of [awsId, ghp, glpat, slack, hook, stripe, openai, anthropic, google, jwt, generic]) {
      expect(messages).not.toContain(secret.slice(-12));
    }
  });

  it('redacts to a public prefix and a length', () => {
    expect(secretLabel(awsId, 4)).toBe('AKIA…(20 chars)');
    expect(secretLabel('abc', 4)).toBe('a…(3 chars)');
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
