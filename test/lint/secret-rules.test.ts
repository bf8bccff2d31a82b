/**
 * Every secret pattern, ported from gitleaks' default rules and secretlint's
 * recommended preset (see src/validate/lint/secrets/), fires on a generated,
 * real-shaped value and stays quiet on the placeholders documentation uses.
 * Values come from fakeToken: no real credential is written here.
 */
import { describe, expect, it } from 'vitest';
import { findSecrets, SECRET_RULES } from '../../src/validate/lint/secrets.js';
import { findings } from './lint-input.js';
import { randomToken as fakeToken } from '../security/random-token.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;
const DIGITS = '0123456789';
const AGE = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
let seed = 500;
const t = (n: number, alphabet = ALNUM): string => fakeToken(n, alphabet, seed++);
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/** [code, what, the text, the secret (which never appears in the message)] */
const REAL: [string, string, string][] = [
  ['RC6001', 'AWS ASIA key id', `ASIA${t(16, UPPER)}`],
  ['RC6002', 'AWS secret in YAML', `aws_secret_access_key: "${t(40, B64)}"`],
  ['RC6003', 'GitHub OAuth token', `gho_${t(36)}`],
  ['RC6003', 'GitHub app token', `ghs_${t(36)}`],
  ['RC6003', 'GitHub fine-grained token', `github_pat_${t(22)}_${t(59)}`],
  ['RC6004', 'GitLab deploy token', `gldt-${t(20, URLSAFE)}`],
  ['RC6004', 'GitLab runner token', `glrt-${t(20, URLSAFE)}`],
  ['RC6004', 'GitLab pipeline trigger token', `glptt-${t(40, HEX)}`],
  ['RC6004', 'GitLab runner registration token', `GR1348941${t(20, URLSAFE)}`],
  ['RC6005', 'Slack bot token with placeholder-looking ids', `xoxb-1234567890-1234567890123-${t(24)}`],
  ['RC6005', 'Slack user token', `xoxp-${t(12, DIGITS)}-${t(12, DIGITS)}-${t(12, DIGITS)}-${t(32, HEX)}`],
  ['RC6005', 'Slack app token', `xapp-1-A${t(10, UPPER)}-${t(13, DIGITS)}-${t(64, HEX)}`],
  ['RC6006', 'Slack webhook without scheme', `hooks.slack.com/services/T${t(8, UPPER)}/B${t(8, UPPER)}/${t(24)}`],
  ['RC6006', 'Discord webhook', `https://discord.com/api/webhooks/${t(18, DIGITS)}/${t(68, URLSAFE)}`],
  ['RC6006', 'Microsoft Teams webhook', `https://acme.webhook.office.com/webhookb2/${t(8, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(12, HEX)}@${t(8, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(12, HEX)}/IncomingWebhook/${t(32, HEX)}/${t(8, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(12, HEX)}`],
  ['RC6007', 'Stripe restricted live key', `rk_live_${t(24)}`],
  ['RC6008', 'OpenAI legacy key', `sk-${t(20)}T3BlbkFJ${t(20)}`],
  ['RC6008', 'OpenAI service-account key', `sk-svcacct-${t(60, URLSAFE)}`],
  ['RC6009', 'Anthropic admin key', `sk-ant-admin01-${t(93, URLSAFE)}AA`],
  ['RC6010', 'Google API key', `key=AIza${t(35, URLSAFE)}`],
  ['RC6011', 'EC private key in a JSON string', `{"key": "-----BEGIN EC PRIVATE KEY-----\\n${t(64, B64)}\\n-----END EC PRIVATE KEY-----"}`],
  ['RC6012', 'JWT with RS256', `${b64url('{"alg":"RS256"}')}.${b64url('{"sub":"x"}')}.${t(86, URLSAFE)}`],
  ['RC6013', 'client_secret assignment', `client_secret = "${t(32)}"`],
  ['RC6013', 'Authorization header in a curl command', `curl -H "Authorization: Bearer ${t(40)}" https://api.internal/v1`],
  ['RC6014', 'Postgres URL password', `DATABASE_URL=postgres://app:${t(16)}@db.internal:5432/app`],
  ['RC6014', 'git remote with a password', `git clone https://bot:${t(20)}@github.com/acme/infra.git`],
  ['RC6014', 'Redis URL without a user', `redis://:${t(24)}@cache.internal:6379/0`],
  ['RC6014', 'AMQP URL with percent-encoding', `amqp://svc:${t(10)}%21${t(6)}@mq.internal/vhost`],
  ['RC6015', 'npm access token', `//registry.npmjs.org/:_authToken=npm_${t(36)}`],
  ['RC6015', 'PyPI upload token', `pypi-AgEIcHlwaS5vcmc${t(70, URLSAFE)}`],
  ['RC6015', 'Hugging Face token', `hf_${t(34, LETTERS)}`],
  ['RC6015', 'Hugging Face organization token', `api_org_${t(34, LETTERS)}`],
  ['RC6015', 'DigitalOcean token', `dop_v1_${t(64, HEX)}`],
  ['RC6015', 'SendGrid API key', `SG.${t(22, URLSAFE)}.${t(43, URLSAFE)}`],
  ['RC6015', 'Shopify token', `shpat_${t(32, HEX)}`],
  ['RC6015', 'Databricks token', `dapi${t(32, HEX)}`],
  ['RC6015', 'Linear API key', `lin_api_${t(40)}`],
  ['RC6015', 'Doppler token', `dp.pt.${t(43)}`],
  ['RC6015', 'HashiCorp Vault token', `hvs.${t(100, URLSAFE)}`],
  ['RC6015', 'Terraform Cloud token', `${t(14)}.atlasv1.${t(67, URLSAFE)}`],
  ['RC6015', 'Grafana token', `glsa_${t(32)}_${t(8, HEX)}`],
  ['RC6015', 'Azure AD client secret', `${t(3)}8Q~${t(34, URLSAFE)}`],
  ['RC6015', 'Atlassian API token', `ATATT3${t(186, URLSAFE)}`],
  ['RC6015', 'Heroku API key', `HRKU-AA${t(58, URLSAFE)}`],
  ['RC6015', 'Postman API key', `PMAK-${t(24, HEX)}-${t(34, HEX)}`],
  ['RC6015', 'Pulumi access token', `pul-${t(40, HEX)}`],
  ['RC6015', 'Sentry token', `sntryu_${t(64, HEX)}`],
  ['RC6015', 'Perplexity API key', `pplx-${t(48)}`],
  ['RC6015', 'Groq API key', `gsk_${t(52)}`],
  ['RC6015', 'Notion API token', `ntn_${t(11, DIGITS)}${t(35)}`],
  ['RC6015', 'Twilio API key', `SK${t(32, HEX)}`],
  ['RC6015', 'Telegram bot token', `${t(9, DIGITS)}:AA${t(33, URLSAFE)}`],
  ['RC6015', 'age secret key', `AGE-SECRET-KEY-1${t(58, AGE)}`],
  ['RC6015', 'Fly.io token', `fo1_${t(43, URLSAFE)}`],
  ['RC6015', 'RubyGems API key', `rubygems_${t(48, HEX)}`],
  ['RC6015', 'PlanetScale token', `pscale_tkn_${t(43, URLSAFE)}`],
  ['RC6015', 'Square access token', `sq0atp-${t(22, URLSAFE)}`],
  ['RC6015', 'Dynatrace API token', `dt0c01.${t(24)}.${t(64)}`],
  ['RC6015', 'Alibaba Cloud access key id', `LTAI${t(20)}`],
  ['RC6015', '1Password service account token', `ops_eyJ${t(260, B64)}`],
  ['RC6015', 'Artifactory API key', `AKCp${t(69)}`],
  ['RC6015', 'EasyPost API key', `EZAK${t(54)}`],
  ['RC6015', 'Brevo (Sendinblue) API key', `xkeysib-${t(64, HEX)}-${t(16)}`],
  ['RC6015', 'Clojars token', `CLOJARS_${t(60, 'abcdefghijklmnopqrstuvwxyz0123456789')}`],
  ['RC6015', 'Prefect API key', `pnu_${t(36)}`],
  ['RC6015', 'Shippo API token', `shippo_live_${t(40, HEX)}`],
  ['RC6015', 'Duffel API token', `duffel_test_${t(43, URLSAFE)}`],
  ['RC6015', 'OpenShift token', `sha256~${t(43, URLSAFE)}`],
];

describe('secret patterns fire on real-shaped values', () => {
  it.each(REAL)('%s %s', (code, _what, text) => {
    const line = `Deploy notes: ${text} (rotate monthly)\n`;
    const found = findings(SECRET_RULES, line);
    expect(found.map((f) => f.code)).toEqual([code]);
    // The message shows at most the public prefix: no 6 characters of the secret material after it.
    const [f] = findSecrets(line);
    const secret = line.slice(f!.secretStart + f!.keep, f!.secretEnd);
    expect(secret.length).toBeGreaterThanOrEqual(8);
    for (let i = 0; i + 6 <= secret.length; i++) if (/\d/.test(secret.slice(i, i + 6))) expect(found[0]!.message).not.toContain(secret.slice(i, i + 6));
  });

  it('a provider token in a secret-named assignment or a URL is reported once, as the provider token', () => {
    const ghp = `ghp_${t(36)}`;
    expect(findSecrets(`GITHUB_TOKEN=${ghp}`).map((f) => f.code)).toEqual(['RC6003']);
    expect(findSecrets(`https://x-access-token:${ghp}@github.com/acme/app`).map((f) => f.code)).toEqual(['RC6003']);
    expect(findSecrets(`Authorization: Bearer ${b64url('{"alg":"HS256"}')}.${b64url('{"a":1}')}.${t(43)}`).map((f) => f.code)).toEqual(['RC6012']);
  });

  it('RC6015 names the provider in its message', () => {
    expect(findings(SECRET_RULES, `hf_${t(34, LETTERS)}`)[0]!.message).toMatch(/^Hugging Face token hf_…\(37 chars\) in an instruction file$/);
  });

  it('a private key is masked up to its END line (the secret material is the whole body)', () => {
    const body = [t(64, B64), t(64, B64), t(20, B64)];
    const text = `key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\nafter`;
    const [f] = findSecrets(text);
    expect(text.slice(f!.secretStart, f!.secretEnd).trim()).toBe(body.join('\n'));
  });
});

const QUIET: [string, string][] = [
  ['angle-bracket placeholder', 'GITHUB_TOKEN=<your-token>'],
  ['x run', 'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ['X run in a Slack token', 'xoxb-XXXXXXXXXXXX-XXXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXX'],
  ['Slack token from a README', 'xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx'],
  ['env reference', 'export NPM_TOKEN=${NPM_TOKEN}'],
  ['sk- ellipsis', 'OPENAI_API_KEY=sk-...'],
  ['sk- words', 'Use the sk-learn-compatible-estimator-interface-version-2 API'],
  ['AWS documented example', 'AKIAIOSFODNN7EXAMPLE'],
  ['AWS low-entropy key id', 'AKIAXXXXXXXXXXXXXXXX'],
  ['Stripe test key', `sk_test_${t(24)}`],
  ['GitLab placeholder', 'glpat-XXXXXXXXXXX-XXXXXXXX'],
  ['Google key placeholder', 'AIzaSyXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'],
  ['npm placeholder', 'npm_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ['Groq placeholder (gitleaks FP)', 'GSK_API_KEY=gsk_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ['Hugging Face placeholder', 'hf_yourHuggingFaceTokenGoesHereXXXXXX'],
  ['URL with password placeholder word', 'postgres://user:password@localhost:5432/app'],
  ['URL with pass from the issue text', 'https://bot:pass@github.com/org/repo'],
  ['docker-hub example password', 'postgresql://postgres:mysecretpassword@localhost/postgres'],
  ['example password in compose docs', 'mongodb://root:example@mongo:27017/'],
  ['URL password from a variable', 'redis://:${REDIS_PASSWORD}@cache:6379'],
  ['URL password from a shell variable', 'postgres://app:$DB_PASS@db/app'],
  ['URL user repeated as password', 'amqp://guest:guest@localhost:5672/'],
  ['URL on a reserved documentation host', `https://alice:${t(12)}@example.com/`],
  ['ssh URL with a user only', 'ssh://git@github.com:22/acme/app.git'],
  ['port after a host, not a password', 'http://localhost:8080/path@v2'],
  ['template variables', 'api_key: {{ .Values.apiKey }}'],
  ['GitHub Actions secret', 'token: ${{ secrets.NPM_TOKEN }}'],
  ['Authorization placeholder', 'Authorization: Bearer <token>'],
  ['Authorization from an env var', 'Authorization: Bearer $GITHUB_TOKEN'],
  ['prose', 'Never commit secrets, tokens, passwords or API keys; use the vault.'],
  ['a hash is not a Twilio key', 'commit 3f786850e387550fdab836ed7e6dc881de23001b'],
  ['Telegram-like numbers without the AA marker', 'ratio 123456789:12345678901234567890123456789012345'],
];

describe('secret patterns stay quiet on placeholders and documentation values', () => {
  it.each(QUIET)('%s', (_name, text) => {
    expect(findings(SECRET_RULES, text)).toEqual([]);
  });
});
