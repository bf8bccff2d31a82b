/**
 * Control characters (RC6106, RC6107). Instruction files are plain text; a
 * control character in one is either an accident (a form feed from an old
 * editor, DEL) or an attack. ESC and the 8-bit control sequence introducers
 * start terminal commands: OSC 52 writes the clipboard of whoever cats the
 * file, ESC[8m hides the text after it from a reviewer while the model still
 * reads it, cursor moves overwrite lines. Those are errors (RC6106); other
 * C0/C1 controls are warnings (RC6107). NUL bytes are RC6503. Tab and newline
 * are text (CR never reaches here: the parser normalises line endings).
 *
 * One pass over the text; the first finding of each code on a line is
 * reported with the number on that line, and the message shows the sequence
 * in escaped form (never the raw characters).
 */
import type { LintInput, LintRule } from '../lint-rules.js';
import { diag, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { oneLine } from '../../report/escape.js';
import { matchesOf, spanOf, textIndexOf } from './text-index.js';

const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** ESC and the C1 introducers of terminal control strings: CSI, OSC, DCS, APC, PM, SOS. */
const INTRODUCERS = new Set([0x1b, 0x9b, 0x9d, 0x90, 0x9f, 0x9e, 0x98]);

const NAMES: Record<number, string> = {
  0x07: 'BELL', 0x08: 'BACKSPACE', 0x0b: 'LINE TABULATION', 0x0c: 'FORM FEED', 0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE', 0x7f: 'DELETE', 0x85: 'NEXT LINE', 0x90: 'DEVICE CONTROL STRING', 0x98: 'START OF STRING',
  0x9b: 'CONTROL SEQUENCE INTRODUCER', 0x9d: 'OPERATING SYSTEM COMMAND', 0x9e: 'PRIVACY MESSAGE', 0x9f: 'APPLICATION PROGRAM COMMAND',
};

const SEQUENCE_KIND: Record<string, string> = {
  '[': 'CSI (cursor, colour, hidden text)', ']': 'OSC (window title, clipboard, hyperlinks)', P: 'DCS', _: 'APC', '^': 'PM', X: 'SOS',
};

interface Finding { code: 'RC6106' | 'RC6107'; start: number; cp: number; count: number }

/** Where the terminal sequence started at `i` ends: its terminator belongs to it and is not reported again. */
function sequenceEnd(text: string, i: number): number {
  const cp = text.charCodeAt(i);
  const kind = cp === 0x1b ? text[i + 1] ?? '' : cp === 0x9b ? '[' : cp === 0x9d ? ']' : 'P';
  let j = cp === 0x1b ? i + 2 : i + 1;
  const limit = Math.min(text.length, i + 4096);
  if (kind === '[') {
    while (j < limit && !(text.charCodeAt(j) >= 0x40 && text.charCodeAt(j) <= 0x7e) && text[j] !== '\n') j++;
    return j + 1;
  }
  if (kind === ']' || kind === 'P' || kind === '_' || kind === '^' || kind === 'X') {
    for (; j < limit && text[j] !== '\n'; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x07 || c === 0x9c) return j + 1;
      if (c === 0x1b && text[j + 1] === '\\') return j + 2;
    }
    return j;
  }
  return cp === 0x1b ? i + 2 : i + 1;
}

function scan(text: string): Finding[] {
  const found: Finding[] = [];
  const perLine = new Map<string, Finding>();
  let lineEnd = -1;
  let skipTo = 0;
  for (const m of matchesOf(CONTROL, text)) {
    if (m.index < skipTo) continue;
    if (m.index > lineEnd) {
      perLine.clear();
      lineEnd = text.indexOf('\n', m.index);
      if (lineEnd === -1) lineEnd = text.length;
    }
    const cp = m[0].charCodeAt(0);
    const code = INTRODUCERS.has(cp) ? 'RC6106' : 'RC6107';
    if (code === 'RC6106') skipTo = sequenceEnd(text, m.index);
    const seen = perLine.get(code);
    if (seen) seen.count++;
    else {
      const f: Finding = { code, start: m.index, cp, count: 1 };
      perLine.set(code, f);
      found.push(f);
    }
  }
  return found;
}

const label = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}${NAMES[cp] ? ` ${NAMES[cp]}` : ''}`;

function describe(f: Finding, text: string): string {
  const more = f.count > 1 ? ` (${f.count} on this line)` : '';
  if (f.code === 'RC6107') return `control character ${label(f.cp)}${more}`;
  const kind = f.cp === 0x1b ? SEQUENCE_KIND[text[f.start + 1] ?? ''] : NAMES[f.cp];
  const eol = text.indexOf('\n', f.start);
  const shown = oneLine(text.slice(f.start, Math.min(f.start + 12, eol === -1 ? text.length : eol)));
  return `terminal escape sequence ${shown}${kind ? ` — ${kind}` : ''}${more}`;
}

function ruleFor(code: Finding['code'], name: string): LintRule {
  return {
    code,
    name,
    check: ({ file, doc }: LintInput): Diagnostic[] => {
      const found = scan(doc.text).filter((f) => f.code === code);
      if (found.length === 0) return [];
      const index = textIndexOf(doc);
      return found.map((f) => diag(code, { file: file.id, range: spanOf(index, f.start, f.start + 1), message: describe(f, doc.text) }));
    },
  };
}

export const CONTROL_CHAR_RULES: LintRule[] = [
  ruleFor('RC6106', 'terminal-escape'),
  ruleFor('RC6107', 'control-character'),
];
