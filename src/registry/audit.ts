/**
 * The audit log: append-only JSON lines, one canonical JSON entry per line,
 * each naming its line number and the sha256 of the line before it. Every
 * committed index records the hash of its own entry (`audit.head`), so the
 * signed index vouches for the whole log up to that line.
 *
 * An op entry is derived from its signed index (seq, time, operation,
 * signers), so a line lost to a crash between the index commit and the append
 * can be written again, byte for byte. Repair entries record what a repair did.
 *
 * checkAudit (pure) compares a log with the index chain:
 * 1. every complete line parses as an entry in canonical form (RC7506);
 * 2. line numbers count up from 1 (RC7502) and each line chains to the one
 *    before it (RC7501);
 * 3. the k-th op entry is the entry index k derives, at the line and with
 *    the hash index k records (RC7503);
 * 4. after the latest index's entry come only repair entries;
 * 5. a torn last line (no newline) and a missing entry for the latest index
 *    are what a crash leaves: the plan truncates the torn bytes and appends
 *    the derived entry and a repair entry (RC7504, RC7505). Anything more
 *    missing is a dropped entry (RC7502).
 */
import { diag, spanAt, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { parseJsonData } from '../util/parse-json-data.js';
import { digestOf } from '../util/hash.js';
import type { IndexDoc, OpRecord } from './model.js';

export const AUDIT_FILE = 'audit.log';

export interface OpEntry {
  kind: 'op';
  entry: number;
  seq: number;
  at: string;
  op: OpRecord;
  /** Key ids that signed the index. */
  by: string[];
  prev: string | null;
}

export interface RepairEntry {
  kind: 'repair';
  entry: number;
  at: string;
  repair: string;
  prev: string | null;
}

export type AuditEntry = OpEntry | RepairEntry;

export interface AuditLine {
  entry: AuditEntry;
  text: string;
  hash: string;
  /** Byte offset of the line's end (after its newline). */
  end: number;
}

/** The index data an op entry is derived from. */
export interface IndexStepRef {
  doc: Pick<IndexDoc, 'seq' | 'at' | 'op' | 'audit'>;
  by: string[];
}

export function opEntry(step: Pick<IndexStepRef, 'by'> & { doc: Pick<IndexDoc, 'seq' | 'at' | 'op'> }, entry: number, prev: string | null): OpEntry {
  return { kind: 'op', entry, seq: step.doc.seq, at: step.doc.at, op: step.doc.op, by: step.by, prev };
}

export function entryLine(entry: AuditEntry): string {
  return `${canonicalJson(entry)}\n`;
}

export function entryHash(entry: AuditEntry): string {
  return digestOf(canonicalJson(entry));
}

export interface ParsedAudit {
  lines: AuditLine[];
  /** Bytes after the last newline: a torn write. */
  torn: { at: number; bytes: number } | null;
  diagnostics: Diagnostic[];
}

export function parseAudit(bytes: Uint8Array): ParsedAudit {
  const buf = Buffer.from(bytes);
  const lines: AuditLine[] = [];
  const diagnostics: Diagnostic[] = [];
  let start = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    if (nl < 0) break;
    const text = buf.subarray(start, nl).toString('utf8');
    const entry = readEntry(text);
    if (entry === null) diagnostics.push(diag('RC7506', { file: AUDIT_FILE, range: spanAt(lines.length + 1, 1), message: `audit line ${lines.length + 1} is not a canonical audit entry` }));
    else lines.push({ entry, text, hash: digestOf(text), end: nl + 1 });
    if (entry === null) break;
    start = nl + 1;
  }
  const torn = diagnostics.length === 0 && start < buf.length ? { at: start, bytes: buf.length - start } : null;
  return { lines, torn, diagnostics };
}

function readEntry(text: string): AuditEntry | null {
  const json = parseJsonData(text);
  if (!json.ok) return null;
  const v = json.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || canonicalJson(v) !== text) return null;
  const e = v as Record<string, unknown>;
  const common = Number.isSafeInteger(e.entry) && typeof e.at === 'string' && (e.prev === null || typeof e.prev === 'string');
  if (e.kind === 'op' && common && Number.isSafeInteger(e.seq) && typeof e.op === 'object' && e.op !== null && Array.isArray(e.by)) return v as OpEntry;
  if (e.kind === 'repair' && common && typeof e.repair === 'string') return v as RepairEntry;
  return null;
}

export interface AuditPlan {
  diagnostics: Diagnostic[];
  /** What a repair writes: keep the first `keep` bytes, then append these entries. Null: nothing to repair. */
  repair: { keep: number; append: AuditEntry[] } | null;
  /** The log's state after the plan: last hash and line count (what the next entry chains to). */
  head: string | null;
  entries: number;
}

/** Compare a parsed log with the chain of indexes 1..N (in order). */
export function checkAudit(log: ParsedAudit, steps: readonly IndexStepRef[], now: string): AuditPlan {
  const diagnostics = [...log.diagnostics];
  const at = (line: number): { file: string; range: ReturnType<typeof spanAt> } => ({ file: AUDIT_FILE, range: spanAt(line, 1) });
  let prev: string | null = null;
  let ops = 0;
  for (const [i, line] of log.lines.entries()) {
    const n = i + 1;
    if (line.entry.entry !== n) {
      diagnostics.push(diag('RC7502', { ...at(n), message: `audit line ${n} is entry ${line.entry.entry}: entries were dropped or reordered` }));
      break;
    }
    if (line.entry.prev !== prev) {
      diagnostics.push(diag('RC7501', { ...at(n - 1), message: `audit line ${n - 1} was edited: line ${n} chains to another hash` }));
      break;
    }
    prev = line.hash;
    if (line.entry.kind !== 'op') continue;
    const step = steps[ops];
    ops += 1;
    const bad = step === undefined
      ? { code: 'RC7503', message: `audit line ${n} records index seq ${line.entry.seq}, which does not exist` }
      : mismatch(line, step, n);
    if (bad) {
      diagnostics.push(diag(bad.code, { ...at(n), message: bad.message }));
      break;
    }
  }
  if (diagnostics.length > 0) return { diagnostics, repair: null, head: prev, entries: log.lines.length };
  return planTail(log, steps, ops, prev, now);
}

function mismatch(line: AuditLine, step: IndexStepRef, n: number): { code: string; message: string } | null {
  const seq = step.doc.seq;
  if (step.doc.audit.entries !== n) return { code: 'RC7503', message: `audit line ${n} holds the entry the index of seq ${seq} places at line ${step.doc.audit.entries}` };
  if (step.doc.audit.head !== line.hash) return { code: 'RC7501', message: `audit line ${n} was edited: it no longer hashes to the head the index of seq ${seq} records` };
  if (canonicalJson(opEntry(step, n, line.entry.prev)) !== line.text) return { code: 'RC7503', message: `audit line ${n} does not record the operation of index seq ${seq}` };
  return null;
}

/** Steps 4–5: only repairs after the last index's entry; a torn line or one missing entry is a crash to repair. */
function planTail(log: ParsedAudit, steps: readonly IndexStepRef[], ops: number, prev: string | null, now: string): AuditPlan {
  const entries = log.lines.length;
  const missing = steps.length - ops;
  if (missing > 1 || (missing === 1 && (steps.at(-1) as IndexStepRef).doc.audit.entries !== entries + 1)) {
    return refusal('RC7502', `the audit log ends at index seq ${ops}, the index is at seq ${steps.length}: entries were dropped`, entries + 1, prev, entries);
  }
  const tail = { keep: log.lines.at(-1)?.end ?? 0, count: entries, prev, torn: log.torn };
  return repairPlan(tail, missing === 1 ? (steps.at(-1) as IndexStepRef) : null, now);
}

interface Tail {
  /** Bytes to keep: the end of the last complete line. */
  keep: number;
  /** Number of that line (0: none). */
  count: number;
  prev: string | null;
  torn: ParsedAudit['torn'];
}

/** Remove a torn line, write the missing entry of `step` (if any), and log the repair. */
function repairPlan(tail: Tail, step: IndexStepRef | null, now: string): AuditPlan {
  if (step === null && tail.torn === null) return { diagnostics: [], repair: null, head: tail.prev, entries: tail.count };
  const append: AuditEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const what: string[] = [];
  let head = tail.prev;
  const line = tail.count + 1;
  if (tail.torn) {
    what.push(`removed a torn last line (${tail.torn.bytes} bytes)`);
    diagnostics.push(diag('RC7504', { file: AUDIT_FILE, range: spanAt(line, 1), message: `audit line ${line} was torn (${tail.torn.bytes} bytes without a newline); removed and logged` }));
  }
  if (step !== null) {
    const e = opEntry(step, line, head);
    if (entryHash(e) !== step.doc.audit.head) {
      return refusal('RC7503', `the entry of index seq ${step.doc.seq} cannot be rewritten at line ${line}: its hash differs from the head the index records`, line, tail.prev, tail.count);
    }
    append.push(e);
    head = entryHash(e);
    what.push(`wrote entry ${line} for index seq ${step.doc.seq} from the signed index`);
    diagnostics.push(diag('RC7505', { file: AUDIT_FILE, range: spanAt(line, 1), message: `audit entry ${line} of index seq ${step.doc.seq} was missing after an interrupted operation; written from the signed index and logged` }));
  }
  const repair: RepairEntry = { kind: 'repair', entry: tail.count + append.length + 1, at: now, repair: what.join('; '), prev: head };
  append.push(repair);
  return { diagnostics, repair: { keep: tail.keep, append }, head: entryHash(repair), entries: repair.entry };
}

function refusal(code: string, message: string, line: number, head: string | null, entries: number): AuditPlan {
  return { diagnostics: [diag(code, { file: AUDIT_FILE, range: spanAt(Math.max(1, line), 1), message })], repair: null, head, entries };
}

/**
 * The writer's check before it appends, reading only the log's tail (bytes
 * from offset `from`; 0 is the whole log): the latest index's entry is in
 * place with only repairs after it, or a crash left exactly that entry missing
 * or torn, which the plan repairs. Anything else sends the user to verify.
 */
export function checkAuditTail(tail: Uint8Array, from: number, latest: IndexStepRef | null, now: string): AuditPlan {
  const buf = Buffer.from(tail);
  const skip = from === 0 ? 0 : buf.indexOf(0x0a) + 1;
  const parsed = parseAudit(buf.subarray(skip));
  const base = from + skip;
  const lines = parsed.lines.map((l) => ({ ...l, end: l.end + base }));
  const torn = parsed.torn && { at: parsed.torn.at + base, bytes: parsed.torn.bytes };
  const stop = (code: string, message: string): AuditPlan => refusal(code, `${message}; run rulec registry verify`, 1, null, 0);
  if (parsed.diagnostics.length > 0) return stop('RC7506', 'the audit log has an unreadable line');
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1] as AuditLine, lines[i] as AuditLine];
    if (b.entry.entry !== a.entry.entry + 1 || b.entry.prev !== a.hash) return stop('RC7502', `audit lines ${a.entry.entry} and ${b.entry.entry} do not chain`);
  }
  const last = lines.at(-1);
  const tailState: Tail = { keep: last?.end ?? base, count: last?.entry.entry ?? 0, prev: last?.hash ?? null, torn };
  if (last === undefined && from !== 0) return stop('RC7506', 'the audit log has no complete line in its last bytes');
  if (latest === null) return last ? stop('RC7503', 'the audit log has entries but the store has no index') : repairPlan(tailState, null, now);
  const { entries, head } = latest.doc.audit;
  const mine = lines.find((l) => l.entry.entry === entries);
  if (mine) {
    if (mine.hash !== head) return stop('RC7501', `audit line ${entries} does not hash to the head the latest index records`);
    if (lines.some((l) => l.entry.entry > entries && l.entry.kind !== 'repair')) return stop('RC7503', 'the audit log records operations the index does not');
    return repairPlan(tailState, null, now);
  }
  if (tailState.count !== entries - 1) return stop('RC7502', `the audit log ends at line ${tailState.count}; the latest index's entry is line ${entries}`);
  return repairPlan(tailState, latest, now);
}
