/**
 * Secrets (RC60xx): credentials pasted into an instruction file. These files
 * are committed, compiled into bundles and injected into every agent session,
 * so a token in one is leaked to every model provider and log that sees the
 * context. Each major provider's key shape has its own code; RC6015 covers
 * the other prefixed provider tokens, RC6013 secret-looking assignments and
 * Authorization headers, RC6014 passwords inside URLs.
 *
 * The patterns live in secrets/ (ported from gitleaks' default rules and
 * secretlint's recommended preset, each citing its source); findSecrets scans
 * a document once and every rule here picks its code's findings. The same
 * findings form the build's redaction set (src/diagnostics/redact.ts).
 * Messages never contain the secret: only a short public prefix and a length.
 */
import type { LintInput, LintRule } from '../lint-rules.js';
import { diag, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { SecretSite } from '../../diagnostics/redact.js';
import type { ParsedDoc } from '../../types.js';
import { spanOf, textIndexOf } from './text-index.js';
import { findSecrets as findSecretsIn, secretsOf } from './secrets/find-secrets.js';

export { findSecrets, secretLabel, type SecretFinding } from './secrets/find-secrets.js';
export { shannonEntropy } from './secrets/randomness.js';

const RULES: [code: string, name: string][] = [
  ['RC6001', 'aws-access-key-id'], ['RC6002', 'aws-secret-access-key'], ['RC6003', 'github-token'],
  ['RC6004', 'gitlab-token'], ['RC6005', 'slack-token'], ['RC6006', 'chat-webhook'], ['RC6007', 'stripe-live-key'],
  ['RC6008', 'openai-api-key'], ['RC6009', 'anthropic-api-key'], ['RC6010', 'google-api-key'],
  ['RC6011', 'private-key-block'], ['RC6012', 'jwt'], ['RC6013', 'secret-assignment'], ['RC6014', 'url-credentials'],
  ['RC6015', 'provider-token'],
];

function check(code: string, { file, doc }: LintInput): Diagnostic[] {
  const found = secretsOf(doc).filter((f) => f.code === code);
  if (found.length === 0) return [];
  const index = textIndexOf(doc);
  return found.map((f) => diag(code, { file: file.id, range: spanOf(index, f.start, f.end), message: f.message }));
}

export const SECRET_RULES: LintRule[] = RULES.map(([code, name]) => ({ code, name, check: (input) => check(code, input) }));

/** Where each detected secret of these documents lies, for the build's redaction set (whatever the rules' severities). */
export function secretSites(docs: Iterable<ParsedDoc>): SecretSite[] {
  const sites: SecretSite[] = [];
  for (const doc of docs) {
    const found = secretsOf(doc);
    if (found.length === 0) continue;
    const index = textIndexOf(doc);
    for (const f of found) {
      sites.push({ file: doc.id, code: f.code, range: spanOf(index, f.secretStart, f.secretEnd), value: doc.text.slice(f.secretStart, f.secretEnd), keep: f.keep });
    }
  }
  return sites;
}

/** The secrets in a text that is not a source file (a rendered context, an agent's request), as sites of `id`. */
export function secretSitesInText(id: string, text: string): SecretSite[] {
  const found = findSecretsIn(text);
  if (found.length === 0) return [];
  const index = textIndexOf({ text });
  return found.map((f) => ({ file: id, code: f.code, range: spanOf(index, f.secretStart, f.secretEnd), value: text.slice(f.secretStart, f.secretEnd), keep: f.keep }));
}
