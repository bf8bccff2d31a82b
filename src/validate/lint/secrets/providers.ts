/**
 * RC6015: API tokens of other providers whose tokens carry a distinctive
 * prefix. One row per token shape, ported from gitleaks' default rules
 * (config/gitleaks.toml; the `rule` column is the gitleaks rule id) with the
 * same entropy floor. Only prefixed shapes are taken: gitleaks rules that need
 * a keyword next to an unprefixed value (e.g. "twitter … = <25 chars>") would
 * fire on too much ordinary prose in instruction files.
 */
import type { SecretKind } from './kinds.js';
import { randomEnough } from './randomness.js';

interface Provider {
  /** Lower-case literal that must occur in the text (gitleaks `keywords`). */
  keyword: string;
  label: string;
  rule: string;
  /** The regex body (without boundaries); the prefix is the leading literal. */
  src: string;
  prefix: string;
  entropy: number;
}

const PROVIDERS: Provider[] = [
  { keyword: 'npm_', label: 'npm access token', rule: 'npm-access-token', prefix: 'npm_', src: 'npm_[A-Za-z0-9]{36}', entropy: 3 },
  { keyword: 'pypi-ageichlwas5vcmc', label: 'PyPI upload token', rule: 'pypi-upload-token', prefix: 'pypi-AgEIcHlwaS5vcmc', src: 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}', entropy: 3 },
  { keyword: 'hf_', label: 'Hugging Face token', rule: 'huggingface-access-token', prefix: 'hf_', src: 'hf_[A-Za-z]{34}', entropy: 3 },
  { keyword: 'api_org_', label: 'Hugging Face organization token', rule: 'huggingface-organization-api-token', prefix: 'api_org_', src: 'api_org_[A-Za-z]{34}', entropy: 3 },
  { keyword: '_v1_', label: 'DigitalOcean token', rule: 'digitalocean-pat', prefix: 'dop_v1_', src: 'do[opr]_v1_[a-f0-9]{64}', entropy: 3 },
  { keyword: 'sg.', label: 'SendGrid API key', rule: 'sendgrid-api-token', prefix: 'SG.', src: 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}', entropy: 3 },
  { keyword: 'shp', label: 'Shopify token', rule: 'shopify-access-token', prefix: 'shpat_', src: 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}', entropy: 3 },
  { keyword: 'dapi', label: 'Databricks token', rule: 'databricks-api-token', prefix: 'dapi', src: 'dapi[a-f0-9]{32}(?:-[0-9])?', entropy: 3 },
  { keyword: 'lin_api_', label: 'Linear API key', rule: 'linear-api-key', prefix: 'lin_api_', src: 'lin_api_[A-Za-z0-9]{40}', entropy: 3 },
  { keyword: 'dp.pt.', label: 'Doppler token', rule: 'doppler-api-token', prefix: 'dp.pt.', src: 'dp\\.pt\\.[A-Za-z0-9]{43}', entropy: 3 },
  { keyword: 'hv', label: 'HashiCorp Vault token', rule: 'vault-service-token', prefix: 'hvs.', src: 'hv[sb]\\.[A-Za-z0-9_-]{90,300}', entropy: 3.5 },
  { keyword: 'atlasv1', label: 'Terraform Cloud token', rule: 'hashicorp-tf-api-token', prefix: '', src: '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}', entropy: 3.5 },
  { keyword: 'gl', label: 'Grafana token', rule: 'grafana-service-account-token', prefix: 'glsa_', src: 'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,3}', entropy: 3 },
  { keyword: 'q~', label: 'Azure AD client secret', rule: 'azure-ad-client-secret', prefix: '', src: '[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}', entropy: 3 },
  { keyword: 'atatt3', label: 'Atlassian API token', rule: 'atlassian-api-token', prefix: 'ATATT3', src: 'ATATT3[A-Za-z0-9_=-]{186}', entropy: 3.5 },
  { keyword: 'hrku-aa', label: 'Heroku API key', rule: 'heroku-api-key-v2', prefix: 'HRKU-AA', src: 'HRKU-AA[0-9A-Za-z_-]{58}', entropy: 4 },
  { keyword: 'pmak-', label: 'Postman API key', rule: 'postman-api-token', prefix: 'PMAK-', src: 'PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}', entropy: 3 },
  { keyword: 'pul-', label: 'Pulumi access token', rule: 'pulumi-api-token', prefix: 'pul-', src: 'pul-[a-f0-9]{40}', entropy: 3 },
  { keyword: 'sntry', label: 'Sentry token', rule: 'sentry-user-token', prefix: 'sntryu_', src: 'sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_]{60,600}', entropy: 3.5 },
  { keyword: 'pplx-', label: 'Perplexity API key', rule: 'perplexity-api-key', prefix: 'pplx-', src: 'pplx-[A-Za-z0-9]{48}', entropy: 4 },
  { keyword: 'gsk_', label: 'Groq API key', rule: 'groq-api-key', prefix: 'gsk_', src: 'gsk_[A-Za-z0-9]{48,52}', entropy: 4 },
  { keyword: 'ntn_', label: 'Notion API token', rule: 'notion-api-token', prefix: 'ntn_', src: 'ntn_[0-9]{11}[A-Za-z0-9]{35}', entropy: 4 },
  { keyword: 'sk', label: 'Twilio API key', rule: 'twilio-api-key', prefix: 'SK', src: 'SK[0-9a-fA-F]{32}', entropy: 3 },
  { keyword: ':aa', label: 'Telegram bot token', rule: 'telegram-bot-api-token', prefix: '', src: '[0-9]{8,10}:AA[A-Za-z0-9_-]{33}', entropy: 3.5 },
  { keyword: 'age-secret-key-1', label: 'age secret key', rule: 'age-secret-key', prefix: 'AGE-SECRET-KEY-1', src: 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}', entropy: 3 },
  { keyword: 'f', label: 'Fly.io token', rule: 'flyio-access-token', prefix: 'fo1_', src: 'fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,2000}={0,3}', entropy: 4 },
  { keyword: 'rubygems_', label: 'RubyGems API key', rule: 'rubygems-api-token', prefix: 'rubygems_', src: 'rubygems_[a-f0-9]{48}', entropy: 3 },
  { keyword: 'pscale_', label: 'PlanetScale token', rule: 'planetscale-api-token', prefix: 'pscale_', src: 'pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}', entropy: 3 },
  { keyword: 'sq0', label: 'Square access token', rule: 'square-access-token', prefix: 'sq0atp-', src: 'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}', entropy: 3 },
  { keyword: 'dt0c01.', label: 'Dynatrace API token', rule: 'dynatrace-api-token', prefix: 'dt0c01.', src: 'dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}', entropy: 4 },
  { keyword: 'ltai', label: 'Alibaba Cloud access key id', rule: 'alibaba-access-key-id', prefix: 'LTAI', src: 'LTAI[A-Za-z0-9]{20}', entropy: 3 },
  { keyword: 'ops_ey', label: '1Password service account token', rule: '1password-service-account-token', prefix: 'ops_', src: 'ops_eyJ[A-Za-z0-9+/]{250,4000}={0,3}', entropy: 4 },
  { keyword: 'akcp', label: 'Artifactory API key', rule: 'artifactory-api-key', prefix: 'AKCp', src: 'AKCp[A-Za-z0-9]{69}', entropy: 4.5 },
  { keyword: 'ez', label: 'EasyPost API key', rule: 'easypost-api-token', prefix: 'EZAK', src: 'EZ[AT]K[A-Za-z0-9]{54}', entropy: 3 },
  { keyword: 'xkeysib-', label: 'Brevo (Sendinblue) API key', rule: 'sendinblue-api-token', prefix: 'xkeysib-', src: 'xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}', entropy: 3 },
  { keyword: 'clojars_', label: 'Clojars token', rule: 'clojars-api-token', prefix: 'CLOJARS_', src: 'CLOJARS_[A-Za-z0-9]{60}', entropy: 3 },
  { keyword: 'pnu_', label: 'Prefect API key', rule: 'prefect-api-token', prefix: 'pnu_', src: 'pnu_[A-Za-z0-9]{36}', entropy: 3 },
  { keyword: 'shippo_', label: 'Shippo API token', rule: 'shippo-api-token', prefix: 'shippo_', src: 'shippo_(?:live|test)_[a-fA-F0-9]{40}', entropy: 3 },
  { keyword: 'duffel_', label: 'Duffel API token', rule: 'duffel-api-token', prefix: 'duffel_', src: 'duffel_(?:test|live)_[A-Za-z0-9_=-]{43}', entropy: 3 },
  { keyword: 'sha256~', label: 'OpenShift token', rule: 'openshift-user-token', prefix: 'sha256~', src: 'sha256~[A-Za-z0-9_-]{43}', entropy: 3.5 },
];

export const PROVIDER_TOKEN_KINDS: SecretKind[] = PROVIDERS.map((p) => ({
  code: 'RC6015',
  name: p.rule,
  label: p.label,
  keywords: [p.keyword],
  re: new RegExp(`(?<![A-Za-z0-9_.~+/-])(?:${p.src})(?![A-Za-z0-9_~+/=-])`, 'g'),
  prefix: p.prefix.length,
  accept: (v: string) => randomEnough(v.slice(p.prefix.length), p.entropy),
}));
