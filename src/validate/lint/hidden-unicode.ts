/**
 * Hidden Unicode (RC61xx): characters a reviewer cannot see but a model reads.
 * Bidi controls reorder what the diff shows ("Trojan Source"); zero-width and
 * other format characters split words so keyword reviews miss them; Unicode
 * tag characters (U+E0000–E007F) spell invisible ASCII that models decode —
 * the "ASCII smuggling" attack — so the message shows what they spell.
 *
 * One pass over the text finds every suspicious code point; the first one of
 * each kind on a line is reported (with the count on that line). Severity
 * follows the class: bidi controls, tag characters and runs of variation
 * selectors are attacks (errors); zero-width and other invisible format
 * characters are usually copy-paste leftovers (warnings). Legitimate
 * uses are left alone: ZWJ inside emoji sequences (👩‍💻), ZWJ/ZWNJ between
 * letters of scripts that need them (Arabic, Indic), one variation selector
 * right after an emoji or ideograph, tag sequences of subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
import type { LintInput, LintRule } from './types.js';
import { diag, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ParsedDoc } from '../../types.js';

const NAMES: Record<number, string> = {
  0x061c: 'ARABIC LETTER MARK', 0x200e: 'LEFT-TO-RIGHT MARK', 0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING', 0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING', 0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE', 0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE', 0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE', 0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER', 0x200d: 'ZERO WIDTH JOINER', 0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE', 0x00ad: 'SOFT HYPHEN', 0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x2061: 'FUNCTION APPLICATION', 0x2062: 'INVISIBLE TIMES', 0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS', 0x034f: 'COMBINING GRAPHEME JOINER', 0x3164: 'HANGUL FILLER',
  0x115f: 'HANGUL CHOSEONG FILLER', 0x1160: 'HANGUL JUNGSEONG FILLER', 0xffa0: 'HALFWIDTH HANGUL FILLER',
};

const EMOJI = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}]$/u;
const EMOJI_BASE = /^\p{Emoji}$/u;
const JOINING_SCRIPT =
  /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Mongolian}\p{M}]$/u;
const IDEOGRAPH = /^\p{Script=Han}$/u;

type Kind = 'RC6101' | 'RC6102' | 'RC6103' | 'RC6104' | 'RC6105';

interface Finding {
  code: Kind;
  line: number;
  col: number;
  endCol: number;
  cp: number;
  count: number;
  /** For tag runs: the ASCII they spell. */
  decoded?: string;
}

function cpAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.codePointAt(i)! : -1;
}

/** The code point that ends just before offset i (surrogate-aware). */
function cpBefore(text: string, i: number): number {
  if (i <= 0) return -1;
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = text.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return text.codePointAt(i - 2)!;
  }
  return lo;
}

const isSelector = (cp: number): boolean => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const carriesData = (cp: number): boolean => isSelector(cp) && cp !== 0xfe0e && cp !== 0xfe0f;
const is = (re: RegExp, cp: number): boolean => cp >= 0 && re.test(String.fromCodePoint(cp));
const width = (cp: number): number => (cp > 0xffff ? 2 : 1);

function classify(text: string, i: number, cp: number): Kind | null {
  if (cp === 0x061c || cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
      (cp >= 0x2066 && cp <= 0x2069)) return 'RC6101';
  if (cp === 0x200b || cp === 0x2060 || (cp === 0xfeff && i > 0)) return 'RC6102';
  if (cp === 0x200c || cp === 0x200d) {
    const prev = cpBefore(text, i);
    const next = cpAt(text, i + 1);
    if (cp === 0x200d && is(EMOJI, prev) && is(EMOJI, next)) return null;
    if (is(JOINING_SCRIPT, prev) && is(JOINING_SCRIPT, next)) return null;
    return 'RC6102';
  }
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'RC6103';
  if (cp >= 0xfe00 && cp <= 0xfe0f) {
    const prev = cpBefore(text, i);
    const next = cpAt(text, i + 1);
    // A run that carries data: two adjacent selectors, at least one of them not a plain
    // text/emoji presentation selector (a doubled U+FE0F is a sloppy paste, not a payload).
    if ((isSelector(prev) && (carriesData(prev) || carriesData(cp))) || (isSelector(next) && (carriesData(next) || carriesData(cp)))) return 'RC6105';
    return is(EMOJI_BASE, prev) || is(IDEOGRAPH, prev) ? null : 'RC6104';
  }
  if (cp >= 0xe0100 && cp <= 0xe01ef) return is(IDEOGRAPH, cpBefore(text, i)) ? null : 'RC6105';
  if (cp === 0x00ad || cp === 0x180e || (cp >= 0x2061 && cp <= 0x2064) || cp === 0x034f ||
      cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0) return 'RC6104';
  return null;
}

/** Length in code units of the tag run at i, and whether it is a subdivision flag. */
function tagRun(text: string, i: number): { end: number; flag: boolean; decoded: string } {
  let j = i;
  let decoded = '';
  let letters = true;
  for (let cp = cpAt(text, j); cp >= 0xe0000 && cp <= 0xe007f; cp = cpAt(text, j)) {
    const ascii = cp - 0xe0000;
    if (cp !== 0xe007f && !((ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x61 && ascii <= 0x7a))) letters = false;
    if (decoded.length < 200) decoded += ascii >= 0x20 && ascii <= 0x7e ? String.fromCharCode(ascii) : '';
    j += 2;
  }
  const flag = letters && cpBefore(text, i) === 0x1f3f4 && cpBefore(text, j) === 0xe007f;
  return { end: j, flag, decoded };
}

function scan(text: string): Finding[] {
  const found: Finding[] = [];
  let line = 1;
  let lineStart = 0;
  let perLine = new Map<Kind, Finding>();
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) { line++; lineStart = i + 1; perLine = new Map(); i++; continue; }
    if (c < 0xad) { i++; continue; }
    const cp = text.codePointAt(i)!;
    const code = classify(text, i, cp);
    let end = i + width(cp);
    let decoded: string | undefined;
    if (code === 'RC6103') {
      const run = tagRun(text, i);
      end = run.end;
      if (run.flag) { i = end; continue; }
      decoded = run.decoded;
    }
    if (code) {
      const seen = perLine.get(code);
      if (seen) seen.count++;
      else {
        const f: Finding = { code, line, col: i - lineStart + 1, endCol: end - lineStart + 1, cp, count: 1 };
        if (decoded !== undefined) f.decoded = decoded;
        perLine.set(code, f);
        found.push(f);
      }
    }
    i = end;
  }
  return found;
}

const CACHE = new WeakMap<ParsedDoc, { text: string; findings: Finding[] }>();

function findingsOf(doc: ParsedDoc): Finding[] {
  const hit = CACHE.get(doc);
  if (hit && hit.text === doc.text) return hit.findings;
  const findings = scan(doc.text);
  CACHE.set(doc, { text: doc.text, findings });
  return findings;
}

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

function describe(f: Finding): string {
  const more = f.count > 1 ? ` (${f.count} on this line)` : '';
  const name = NAMES[f.cp] ? ` ${NAMES[f.cp]}` : '';
  switch (f.code) {
    case 'RC6101':
      return `bidirectional control ${codePointLabel(f.cp)}${name}${more}`;
    case 'RC6102':
      return `zero-width character ${codePointLabel(f.cp)}${name}${more}`;
    case 'RC6103':
      return `invisible Unicode tag characters spell ${JSON.stringify(f.decoded ?? '')}${more}`;
    case 'RC6104':
      return `invisible format character ${codePointLabel(f.cp)}${name || ' VARIATION SELECTOR'}${more}`;
    case 'RC6105':
      return `variation selector ${codePointLabel(f.cp)} that can carry hidden data${more}`;
  }
}

function ruleFor(code: Kind, name: string): LintRule {
  return {
    code,
    name,
    // A generator: a file can hold one finding per line, and runLint keeps only the first ones.
    *check({ file, doc }: LintInput): Iterable<Diagnostic> {
      for (const f of findingsOf(doc)) {
        if (f.code !== code) continue;
        yield diag(code, { file: file.id, range: { start: { line: f.line, col: f.col }, end: { line: f.line, col: f.endCol } }, message: describe(f) });
      }
    },
  };
}

export const HIDDEN_UNICODE_RULES: LintRule[] = [
  ruleFor('RC6101', 'bidi-control'),
  ruleFor('RC6102', 'zero-width'),
  ruleFor('RC6103', 'unicode-tags'),
  ruleFor('RC6104', 'invisible-format'),
  ruleFor('RC6105', 'variation-selector-run'),
];
