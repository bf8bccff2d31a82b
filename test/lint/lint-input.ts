/**
 * Minimal LintInput builders for lint tests: decode like the parse stage does
 * (UTF-8, BOM stripped, CRLF/CR → LF) without frontmatter.
 */
import type { ParsedDoc, SourceFile } from '../../src/types.js';
import type { LintInput, LintRule } from '../../src/validate/lint-rules.js';

export function inputFromBytes(id: string, bytes: Uint8Array): LintInput {
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const noBom = decoded.startsWith('\uFEFF') ? decoded.slice(1) : decoded;
  const text = noBom.replace(/\r\n?/g, '\n');
  const doc: ParsedDoc = {
    id, text, body: text, bodyLine: 1, frontmatter: null, frontmatterKeys: {}, imports: [],
  };
  const file: SourceFile = {
    id, rel: id, root: 'repo', format: 'agents', layer: 'repo', scope: '', bytes, tracked: true,
  };
  return { file, doc };
}

export function inputFromText(text: string, id = 'AGENTS.md'): LintInput {
  return inputFromBytes(id, new TextEncoder().encode(text));
}

export interface Finding {
  code: string;
  severity: string;
  /** `line:col-line:col`, end exclusive. */
  at: string;
  message: string;
}

/** Run some rules over one text and flatten the findings for whole-array assertions. */
export function findings(rules: readonly Pick<LintRule, 'check'>[], text: string): Finding[] {
  const input = inputFromText(text);
  return rules.flatMap((r) => [...r.check(input)]).map((d) => ({
    code: d.code,
    severity: d.severity,
    at: `${d.range.start.line}:${d.range.start.col}-${d.range.end.line}:${d.range.end.col}`,
    message: d.message,
  }));
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A deterministic random-looking string, so tests never hold a literal that
 * secret scanners (or reviewers) mistake for a real credential.
 */
export function fakeToken(length: number, alphabet = ALNUM, seed = 7): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[(x >> 8) % alphabet.length];
  }
  return out;
}
