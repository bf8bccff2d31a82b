/**
 * Verifying signed indexes (pure). One step takes the previous trusted index
 * (or the empty genesis state) and the bytes of the next one:
 * 1. the bytes are a canonical DSSE envelope of an index payload (RC7307, RC7204);
 * 2. its seq is the previous seq + 1 and `prev` is the previous envelope's
 *    digest (RC7205);
 * 3. its signatures reach the threshold of the role its operation needs,
 *    under the trust file, at its seq (RC7302–RC7305);
 * 4. applying its operation to the previous state gives exactly its state
 *    (RC7206): a key of one role can never sign in a change only another
 *    role may make, and no field of the state can be edited.
 * A chain is verified by folding steps from a checkpoint to the latest index.
 */
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { digestOf } from '../util/hash.js';
import { parseIndexDoc } from './index-doc.js';
import { emptyState, ROLE_OF, type IndexDoc, type RegistryState } from './model.js';
import { checkSignatures, parseEnvelope, PAYLOAD_TYPE } from './sign.js';
import { transition } from './state.js';
import type { TrustPolicy } from './trust.js';

/** A verified index: its envelope digest, its document and who signed it. */
export interface VerifiedIndex {
  seq: number;
  digest: string;
  doc: IndexDoc;
  by: string[];
  bytes: string;
}

/** What a step is checked against: a verified index, or seq 0 (no index yet). */
export interface ChainPoint {
  seq: number;
  digest: string | null;
  state: RegistryState;
}

export const GENESIS: ChainPoint = { seq: 0, digest: null, state: emptyState() };

export function pointOf(v: VerifiedIndex): ChainPoint {
  return { seq: v.seq, digest: v.digest, state: v.doc.state };
}

export type StepResult = { ok: true; index: VerifiedIndex } | { ok: false; diagnostic: Diagnostic };

/** Steps 1–3: parse and check signatures, without replaying the operation. */
export function readIndex(bytes: Uint8Array | string, trust: TrustPolicy, file: string): StepResult {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  const env = parseEnvelope(text, PAYLOAD_TYPE.index, file);
  if (!env.ok) return env;
  const parsed = parseIndexDoc(env.payload, file);
  if (!parsed.ok) return parsed;
  const doc = parsed.doc;
  const refused = checkSignatures(env.envelope, trust, ROLE_OF[doc.op.op], file, doc.seq);
  if (refused) return { ok: false, diagnostic: refused };
  return { ok: true, index: { seq: doc.seq, digest: digestOf(text), doc, by: env.envelope.signatures.map((s) => s.keyid), bytes: text } };
}

export function verifyStep(prev: ChainPoint, bytes: Uint8Array | string, trust: TrustPolicy, file: string): StepResult {
  const read = readIndex(bytes, trust, file);
  if (!read.ok) return read;
  const { doc } = read.index;
  if (doc.seq !== prev.seq + 1) return refuse('RC7205', file, `index seq ${doc.seq} follows seq ${prev.seq}`);
  if (doc.prev !== prev.digest) return refuse('RC7205', file, `index seq ${doc.seq} names ${doc.prev ?? 'no'} previous index, not ${prev.digest ?? 'none'}`);
  const next = transition(prev.state, doc.op, doc.seq);
  if (!next.ok) return refuse('RC7206', file, `index seq ${doc.seq} records a refused ${doc.op.op}: ${next.diagnostic.code} ${next.diagnostic.message}`);
  if (canonicalJson(next.state) !== canonicalJson(doc.state)) return refuse('RC7206', file, `index seq ${doc.seq}: its state is not what its ${doc.op.op} makes of seq ${prev.seq}`);
  return read;
}

function refuse(code: string, file: string, message: string): StepResult {
  return { ok: false, diagnostic: diag(code, { file, message }) };
}
