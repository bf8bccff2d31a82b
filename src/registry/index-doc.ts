/**
 * The signed index document (schemas/registry-index.schema.json): parse an
 * untrusted payload into an IndexDoc, or refuse it with RC7204.
 *
 * Only the envelope fields and the operation are checked for shape here: the
 * state is never trusted as read, because chain.ts replays the operation on
 * the previous state and requires the result to equal it byte for byte.
 */
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { parseJsonData } from '../util/parse-json-data.js';
import { GRAMMAR, INDEX_SCHEMA_ID, OP_NAMES, type IndexDoc } from './model.js';

export type IndexParse = { ok: true; doc: IndexDoc } | { ok: false; diagnostic: Diagnostic };

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;
const TOP_KEYS = ['at', 'audit', 'expires', 'op', 'prev', 'schema', 'seq', 'state'];
const STATE_KEYS = ['bundles', 'channels', 'denylist'];

/** Keys and value checks of each operation's record (plus `op` and `actor`). */
const OP_FIELDS: Record<string, Record<string, (v: unknown) => boolean>> = {
  publish: { channel: isStr, digest: isStr, bundle_id: isStr, version: isStr, rev_seq: isInt, signature: isStr },
  canary: { channel: isStr, digest: isStr, bps: isInt, salt: isStr },
  ramp: { channel: isStr, digest: isStr, bps: isInt },
  abort: { channel: isStr, digest: isStr },
  promote: { channel: isStr, digest: isStr },
  rollback: { channel: isStr, digest: isStr },
  deprecate: { channel: isStr, digest: isStr },
  revoke: { digest: isStr, severity: isStr, reason: isStr },
  refresh: {},
};

function isStr(v: unknown): boolean {
  return typeof v === 'string';
}
function isInt(v: unknown): boolean {
  return Number.isSafeInteger(v);
}
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const sameKeys = (o: Record<string, unknown>, keys: readonly string[]): boolean => {
  const k = Object.keys(o).sort();
  return k.length === keys.length && [...keys].sort().every((x, i) => x === k[i]);
};

export function parseIndexDoc(payload: Uint8Array | string, file: string): IndexParse {
  const json = parseJsonData(payload);
  if (!json.ok) return bad(file, `the index payload ${json.why}`);
  const { value: v, text } = json;
  if (!isObject(v) || !sameKeys(v, TOP_KEYS)) return bad(file, `the index must have exactly the keys ${TOP_KEYS.join(', ')}`);
  if (canonicalJson(v) !== text) return bad(file, 'the index payload is not in canonical form');
  if (v.schema !== INDEX_SCHEMA_ID) return bad(file, `schema must be ${INDEX_SCHEMA_ID}`);
  if (!isInt(v.seq) || (v.seq as number) < 1) return bad(file, 'seq must be a positive integer');
  if (v.prev !== null && !(typeof v.prev === 'string' && GRAMMAR.digest.test(v.prev))) return bad(file, 'prev must be null or a sha256: digest');
  if ((v.prev === null) !== (v.seq === 1)) return bad(file, 'prev is null exactly for seq 1');
  if (typeof v.at !== 'string' || !ISO_UTC.test(v.at) || typeof v.expires !== 'string' || !ISO_UTC.test(v.expires)) return bad(file, 'at and expires must be UTC times (YYYY-MM-DDTHH:MM:SS.sssZ)');
  if (v.expires <= v.at) return bad(file, 'expires must be later than at');
  const audit = v.audit;
  if (!isObject(audit) || !sameKeys(audit, ['entries', 'head']) || !isInt(audit.entries) || (audit.entries as number) < 1 || typeof audit.head !== 'string' || !GRAMMAR.digest.test(audit.head)) {
    return bad(file, 'audit must be {head: sha256 digest, entries: positive integer}');
  }
  if (!isObject(v.state) || !sameKeys(v.state, STATE_KEYS) || !STATE_KEYS.every((k) => isObject((v.state as Record<string, unknown>)[k]))) {
    return bad(file, `state must be an object of ${STATE_KEYS.join(', ')}`);
  }
  const opProblem = checkOpRecord(v.op);
  if (opProblem) return bad(file, `op: ${opProblem}`);
  return { ok: true, doc: v as unknown as IndexDoc };
}

/** null when `op` has exactly the fields of its operation, each of the right type. */
export function checkOpRecord(op: unknown): string | null {
  if (!isObject(op) || typeof op.op !== 'string' || !(OP_NAMES as readonly string[]).includes(op.op)) return `must name one of ${OP_NAMES.join(', ')}`;
  const fields = OP_FIELDS[op.op] as Record<string, (v: unknown) => boolean>;
  if (!sameKeys(op, ['op', 'actor', ...Object.keys(fields)])) return `${op.op} has exactly the keys op, actor, ${Object.keys(fields).join(', ')}`;
  if (typeof op.actor !== 'string' || op.actor.length === 0 || op.actor.length > 200) return 'actor must be 1–200 characters';
  for (const [k, check] of Object.entries(fields)) if (!check(op[k])) return `${op.op}.${k} has the wrong type`;
  return null;
}

function bad(file: string, message: string): IndexParse {
  return { ok: false, diagnostic: diag('RC7204', { file, message }) };
}
