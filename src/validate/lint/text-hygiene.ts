/**
 * Text hygiene (RC65xx): files that are technically loadable but broken as
 * text. An empty file costs a slot and says nothing (often a failed generator
 * or a bad merge); mixed line endings mean two editors fought over the file and
 * diffs stop being reviewable; NUL bytes mean a binary or corrupted file that
 * agents truncate or choke on. Line endings are read from the raw bytes,
 * because `doc.text` has already been normalised to LF.
 */
import type { LintInput, LintRule } from './types.js';
import { diag, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { positionAt, spanOf, textIndexOf } from './text-index.js';

function checkEmpty({ file, doc }: LintInput): Diagnostic[] {
  if (doc.body.trim() !== '') return [];
  const what = doc.text.trim() === '' ? 'file is empty or whitespace only' : 'file has frontmatter but no instructions';
  return [diag('RC6501', { file: file.id, range: spanOf(textIndexOf(doc), 0, 0), message: what })];
}

type Ending = 'CRLF' | 'LF' | 'CR';

/** Count each kind of line ending and note the line of the first one unlike the first. */
export function lineEndings(bytes: Uint8Array): { counts: Record<Ending, number>; oddLine: number; odd: Ending | null } {
  const counts: Record<Ending, number> = { CRLF: 0, LF: 0, CR: 0 };
  let first: Ending | null = null;
  let odd: Ending | null = null;
  let oddLine = 0;
  let line = 1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    let kind: Ending | null = null;
    if (b === 0x0d) {
      if (bytes[i + 1] === 0x0a) { kind = 'CRLF'; i++; } else kind = 'CR';
    } else if (b === 0x0a) kind = 'LF';
    if (!kind) continue;
    counts[kind]++;
    if (first === null) first = kind;
    else if (kind !== first && odd === null) { odd = kind; oddLine = line; }
    line++;
  }
  return { counts, oddLine, odd };
}

function checkMixedEndings({ file, doc }: LintInput): Diagnostic[] {
  const { counts, odd, oddLine } = lineEndings(file.bytes);
  if (odd === null) return [];
  const summary = (Object.keys(counts) as Ending[])
    .filter((k) => counts[k] > 0)
    .map((k) => `${counts[k]} ${k}`)
    .join(', ');
  const index = textIndexOf(doc);
  const line = Math.min(oddLine, index.lineStarts.length);
  const next = index.lineStarts[line];
  const end = next === undefined ? doc.text.length : next - 1;
  return [diag('RC6502', {
    file: file.id,
    range: spanOf(index, end, end),
    message: `mixed line endings (${summary}); the first ${odd} ends line ${oddLine}`,
  })];
}

function checkNul({ file, doc }: LintInput): Diagnostic[] {
  let count = 0;
  for (const b of file.bytes) if (b === 0) count++;
  if (count === 0) return [];
  const at = doc.text.indexOf('\u0000');
  const index = textIndexOf(doc);
  const pos = at === -1 ? { line: 1, col: 1 } : positionAt(index, at);
  return [diag('RC6503', {
    file: file.id,
    range: { start: pos, end: { line: pos.line, col: pos.col + (at === -1 ? 0 : 1) } },
    message: `file contains ${count} NUL byte${count === 1 ? '' : 's'}`,
  })];
}

export const TEXT_HYGIENE_RULES: LintRule[] = [
  { code: 'RC6501', name: 'empty-file', check: checkEmpty },
  { code: 'RC6502', name: 'mixed-line-endings', check: checkMixedEndings },
  { code: 'RC6503', name: 'nul-bytes', check: checkNul },
];
