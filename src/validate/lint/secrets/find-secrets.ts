/**
 * findSecrets(text): every credential in a text, once, with where its secret
 * material lies. The lint rules (RC60xx) report these findings; compile turns
 * them into the build's redaction set, so every output surface can mask them.
 *
 * 1. Run the prefixed kinds (provider shapes), each only when one of its
 *    keywords occurs in the lower-cased text.
 * 2. Run the context kinds (assignments, Authorization headers, URL
 *    passwords) and drop those that overlap a finding of step 1.
 * 3. Sort by position. Messages carry a public prefix and a length, never the secret.
 */
import type { ParsedDoc } from '../../../types.js';
import { matchesOf } from '../text-index.js';
import { PROVIDER_KINDS, secretPrefix, type SecretKind } from './kinds.js';
import { PROVIDER_TOKEN_KINDS } from './providers.js';
import { GENERIC_KINDS } from './generic.js';

export interface SecretFinding {
  code: string;
  /** [start, end) offsets in the text the diagnostic points at. */
  start: number;
  end: number;
  /** [start, end) offsets of the secret material: what must never leave rulec. */
  secretStart: number;
  secretEnd: number;
  /** Leading characters of the secret material that are a public prefix (ghp_, AKIA …). */
  keep: number;
  message: string;
}

/** `AKIA…(20 chars)`: at most a third of the value, up to its public prefix, then the length. */
export function secretLabel(value: string, prefix: number): string {
  return `${value.slice(0, Math.min(prefix, Math.floor(value.length / 3)))}…(${value.length} chars)`;
}

const SPECIFIC: readonly SecretKind[] = [...PROVIDER_KINDS, ...PROVIDER_TOKEN_KINDS];

function findKind(kind: SecretKind, text: string, lower: string): SecretFinding[] {
  if (!kind.keywords.some((k) => lower.includes(k))) return [];
  const out: SecretFinding[] = [];
  for (const m of matchesOf(kind.re, text)) {
    const span = m.indices?.groups?.secret;
    const [secretStart, matchEnd] = span ?? [m.index, m.index + m[0].length];
    const end = m.index + m[0].length;
    const secret = text.slice(secretStart, span ? span[1] : matchEnd);
    if (kind.accept && !kind.accept(secret, text, end, m)) continue;
    const secretEnd = kind.extend ? kind.extend(text, end) : span ? span[1] : matchEnd;
    const keep = secretPrefix(kind, secret);
    const shown = kind.code === 'RC6011' ? '' : ` ${secretLabel(secret, keep)}`;
    const detail = kind.detail ? ` (${kind.detail(m[0])})` : '';
    const bySecret = kind.range === 'secret';
    out.push({
      code: kind.code,
      start: bySecret ? secretStart : m.index,
      end: bySecret ? secretEnd : end,
      secretStart: kind.extend ? end : secretStart,
      secretEnd,
      keep: kind.extend ? 0 : keep,
      message: kind.message ? kind.message(m, shown.trim()) : `${kind.label}${detail}${shown} in an instruction file`,
    });
  }
  return out;
}

const overlaps = (a: SecretFinding, b: SecretFinding): boolean => a.secretStart < b.secretEnd && b.secretStart < a.secretEnd;

export function findSecrets(text: string): SecretFinding[] {
  const lower = text.toLowerCase();
  const specific = SPECIFIC.flatMap((kind) => findKind(kind, text, lower));
  const generic = GENERIC_KINDS.flatMap((kind) => findKind(kind, text, lower))
    .filter((g) => !specific.some((s) => overlaps(s, g)));
  return [...specific, ...generic].sort((a, b) => a.start - b.start || a.end - b.end);
}

const CACHE = new WeakMap<ParsedDoc, { text: string; found: SecretFinding[] }>();

/** One scan per document, shared by every secret rule and by the build's redaction set. */
export function secretsOf(doc: ParsedDoc): SecretFinding[] {
  const hit = CACHE.get(doc);
  if (hit && hit.text === doc.text) return hit.found;
  const found = findSecrets(doc.text);
  CACHE.set(doc, { text: doc.text, found });
  return found;
}
