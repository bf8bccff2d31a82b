/**
 * The keys a statement is indexed by for duplicated text: its normalised
 * whole, the same without filler words, and the parts of it that are
 * statements of their own (a dash's head and remark, the lead sentence of
 * several when it instructs). A part that only
 * refers to something (a path, a command, a link, a table row's label beside
 * a path) is a reference, not an instruction, and is no key.
 */
import { ABBREV, maskCode } from './statements.js';

/**
 * What makes two statements "the same text": case, punctuation, Markdown
 * emphasis and code ticks, whitespace and a trailing parenthesised remark are
 * ignored. "Run **all** tests before you push (CI checks it)." and
 * "run all tests before you push" are one statement.
 */
export function normaliseStatement(text: string): string {
  const plain = text.toLowerCase().replace(/[*_`~]+/g, '');
  // The words' code units, one space between two words, go into a buffer that becomes a string
  // once. Cutting every word out as a string and joining them, and a replace of the separators,
  // both cost more per word the longer the statement (one of 64,000 words: 460 and 160 ns a word;
  // this scan 60, the same at 256,000).
  const end = trailingGroupStart(plain);
  const units = end <= SCRATCH.length ? SCRATCH : new Uint16Array(end);
  let length = 0;
  let between = false;
  for (let i = 0; i < end;) {
    const width = charWidth(plain, i);
    if (isWordChar(plain, i, width)) {
      if (between && length > 0) units[length++] = 0x20;
      between = false;
      units[length++] = plain.charCodeAt(i);
      if (width === 2) units[length++] = plain.charCodeAt(i + 1);
    } else between = true;
    i += width;
  }
  return stringOf(units, length);
}

/** The buffer of every statement that fits (most do): one per call cost more than the scan. */
const SCRATCH = new Uint16Array(4096);
/** Code units per String.fromCharCode call: its arguments go on the stack. */
const CHUNK = 8192;

/** The first `length` code units as a string (a pair split between two chunks is whole again once joined). */
function stringOf(units: Uint16Array, length: number): string {
  const part = (from: number, to: number): string => String.fromCharCode.apply(null, units.subarray(from, to) as unknown as number[]);
  if (length <= CHUNK) return part(0, length);
  const parts: string[] = [];
  for (let from = 0; from < length; from += CHUNK) parts.push(part(from, Math.min(length, from + CHUNK)));
  return parts.join('');
}

/**
 * Where a balanced parenthesised remark that ends the text begins ("… before
 * you push (CI checks it)."), or the text's length: only at the very end, and
 * never when the group is the whole statement.
 */
function trailingGroupStart(s: string): number {
  let last = s.length - 1;
  while (last >= 0 && isSeparator(s, last)) last--;
  if (s[last] !== ')') return s.length;
  let depth = 0;
  for (let i = last; i >= 0; i--) {
    if (s[i] === ')') depth++;
    else if (s[i] === '(' && --depth === 0) {
      let first = 0;
      while (first < i && isSeparator(s, first)) first++;
      return first === i ? s.length : i;
    }
  }
  return s.length;
}

/** Neither a word character nor a parenthesis (code units; a surrogate pair is a word character or neither, on either half). */
function isSeparator(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c === 0x28 || c === 0x29) return false;
  if (c >= 0xdc00 && c <= 0xdfff && i > 0 && charWidth(s, i - 1) === 2) return !isWordChar(s, i - 1, 2);
  return !isWordChar(s, i, charWidth(s, i));
}

function charWidth(s: string, i: number): 1 | 2 {
  const c = s.charCodeAt(i);
  const next = s.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

function isWordChar(s: string, i: number, width: 1 | 2): boolean {
  const c = s.charCodeAt(i);
  return c < 128 ? ASCII_WORD[c] === 1 : WORD_CHAR.test(s.slice(i, i + width));
}

const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = /[a-zA-Z0-9]/.test(String.fromCharCode(c)) ? 1 : 0;


/**
 * Words that intensify without changing what a statement asks: "**ALWAYS**
 * run X before committing any changes" repeats "Run X before committing
 * changes". Not negations, modals or quantities ("never", "must", "all"),
 * and not where the word carries meaning: "always" after a negation ("you do
 * not always need to …"), "any" after a preposition ("in any order", "at any
 * time").
 */
const FILLERS = new Set(['always', 'any', 'please']);
/** One of FILLERS as a word of a normalised statement: most statements have none, and are not split at all. */
const HAS_FILLER = /(?:^| )(?:always|any|please)(?= |$)/;
const KEEPS_AFTER: Record<string, ReadonlySet<string>> = {
  always: new Set(['not', 't', 'never', 'no']),
  any: new Set(['in', 'at', 'by', 'of', 'for', 'from', 'with', 'to', 'on', 'without', 'under', 'into']),
};

/** A normalised statement without its filler words (the statement itself when it has none). */
export function withoutFillers(norm: string): string {
  if (!HAS_FILLER.test(norm)) return norm;
  const words = norm.split(' ');
  return words.filter((w, i) => !FILLERS.has(w) || (KEEPS_AFTER[w]?.has(words[i - 1] ?? '') ?? false)).join(' ');
}

/**
 * A spaced dash splits "**Never commit to `main`** — a hook enforces this"
 * into a head and a remark. The head is also a statement of its own (the
 * rule without its reason) when the remark holds no code or the head is
 * itself an instruction: "Use the formatter — `pnpm format`" is not the
 * statement "Use the formatter", while "New features must be opt-in by
 * default - extend `Options`" does state "New features must be opt-in by
 * default". The remark is a statement of its own when it is an instruction:
 * "Forgetting the spec — reviewers must see a diff". Normalised; null for a
 * part that is not one, and for both in a table row (a dash there separates
 * a cell's description). The first spaced dash outside code spans: one scan.
 */
export function statementParts(text: string): { head: string | null; tail: string | null } {
  if (text.includes('|')) return NONE;
  const prose = maskCode(text).prose;
  const m = /\s[—–-]\s/.exec(prose);
  if (m === null) return NONE;
  const lead = text.slice(0, m.index);
  const head = isReference(lead) ? null : normaliseStatement(lead);
  const remark = text.slice(m.index + m[0].length);
  const tail = normaliseStatement(remark);
  return { head: head !== null && (!remark.includes('`') || INSTRUCTION.test(head)) ? head : null, tail: INSTRUCTION.test(tail) ? tail : null };
}

/**
 * Every key of a statement: its normalised whole (`norm`) and the same
 * without fillers, unless it is a reference; its head and remark when they are
 * statements of their own. The caller drops keys too short to count.
 */
export function duplicateKeys(text: string, norm = normaliseStatement(text)): string[] {
  const keys = new Set<string>();
  if (!isReference(text)) keys.add(norm).add(withoutFillers(norm));
  const { head, tail } = statementParts(text);
  if (head !== null) keys.add(head);
  if (tail !== null) keys.add(tail);
  const lead = leadSentence(text);
  if (lead !== null) keys.add(lead);
  return [...keys];
}

/**
 * The lead sentence of a statement of several, normalised, when it instructs:
 * "New features must be **opt-in by default**. Options control whether …"
 * states "New features must be opt-in by default" on its own. Only the lead:
 * later sentences lean on it ("Changes to one must be mirrored in the other"
 * means something else after each lead). Cut at the first sentence end
 * outside code spans (not after "e.g."); null for a single sentence.
 */
function leadSentence(text: string): string | null {
  const prose = maskCode(text).prose;
  for (const m of prose.matchAll(/[.!?](?=\s)/g)) {
    if (m[0] === '.' && ABBREV.test(prose.slice(Math.max(0, m.index - 8), m.index))) continue;
    if (text.slice(m.index + 1).trim() === '') return null;
    const lead = text.slice(0, m.index + 1);
    const norm = normaliseStatement(lead);
    return INSTRUCTION.test(norm) && !isReference(lead) ? norm : null;
  }
  return null;
}

/**
 * Text that only refers: nothing but code spans and links ("`.github/workflows/ci.yml`",
 * "[docs/mf.md](../docs/mf.md)"), or a table row whose cells after its label are
 * (`| Host config | \`frontend/config/mf.js\` |`). The same path listed in two files'
 * "see also" lists is not a duplicated instruction.
 */
export function isReference(text: string): boolean {
  let prose = maskCode(text).prose;
  if (/^\s*\|/.test(prose)) prose = prose.replace(/^\s*\|[^|]*/, '');
  return !/[\p{L}\p{N}]/u.test(withoutLinks(prose));
}

/** `[text](target)` blanked; one forward scan (an unclosed `[` or `(` ends it: no later link can close). */
function withoutLinks(text: string): string {
  if (!text.includes('](')) return text;
  const parts: string[] = [];
  let from = 0;
  for (let open = text.indexOf('['); open >= 0; open = text.indexOf('[', from)) {
    const close = text.indexOf(']', open + 1);
    if (close < 0) break;
    if (text[close + 1] !== '(') {
      parts.push(text.slice(from, close + 1));
      from = close + 1;
      continue;
    }
    const end = text.indexOf(')', close + 2);
    if (end < 0) break;
    parts.push(text.slice(from, open), ' ');
    from = end + 1;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

const NONE = { head: null, tail: null };
/** A normalised statement that instructs: a modal or an imperative of obligation. */
const INSTRUCTION = /(?:^| )(?:must|should|shall|never|always|required|avoid|do not|don t)(?= |$)/;

