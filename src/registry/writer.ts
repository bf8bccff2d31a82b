/**
 * commitOp(): one registry operation, from request to committed index.
 *
 * 1. The signing keys must reach the threshold of the operation's role in
 *    the trust file (RC7306); nothing is written otherwise.
 * 2. Under the store's writer lock: read the latest index and check its
 *    signatures and that it follows from its operation (the older chain is
 *    `registry verify`'s job).
 * 3. Check the audit log's tail; finish what a crashed writer left (a torn
 *    line, the missing entry of the latest index) and log that repair.
 * 4. Build the operation from the current state and run the pure state
 *    machine; a refusal is a RegistryError with its RC71xx diagnostic.
 * 5. Derive the new audit entry, put its hash in the new index, sign the
 *    index with every given key, and compare-and-swap it in; the store
 *    appends the entry. A lost compare-and-swap (someone bypassed the lock)
 *    is retried from step 2, then refused (RC7207).
 */
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { checkAuditTail, entryHash, entryLine, opEntry, type IndexStepRef } from './audit.js';
import { GENESIS, pointOf, readIndex, verifyStep, type ChainPoint, type VerifiedIndex } from './chain.js';
import { RegistryError, registryError } from './errors.js';
import type { SigningKey } from './keys.js';
import { INDEX_SCHEMA_ID, ROLE_OF, type IndexDoc, type Op, type OpName, type RegistryState } from './model.js';
import { envelopeBytes, PAYLOAD_TYPE, signEnvelope } from './sign.js';
import { transition } from './state.js';
import type { Store } from './store.js';
import { keyStanding, type TrustPolicy } from './trust.js';

export const DEFAULT_INDEX_LIFETIME_MS = 30 * 24 * 3600 * 1000;
const AUDIT_TAIL_BYTES = 64 * 1024;
const CAS_ATTEMPTS = 3;

export interface WriterOptions {
  store: Store;
  trust: TrustPolicy;
  keys: readonly SigningKey[];
  /** Who asks for the operation (recorded in the index and the audit log). */
  actor: string;
  /** How long a new index stays fresh (its signed `expires`). */
  lifetimeMs?: number;
  now?: () => Date;
}

export interface OpOutcome {
  index: VerifiedIndex;
  /** Warnings and notes: repairs made on the way, a channel left serving nothing. */
  diagnostics: Diagnostic[];
}

/** Build the operation from the state it applies to; throw a RegistryError to refuse. */
export type OpBuilder = (state: RegistryState, seq: number) => Op;

export async function commitOp(w: WriterOptions, name: OpName, build: OpBuilder): Promise<OpOutcome> {
  checkKeys(w, name);
  if (!(await w.store.exists())) throw registryError('RC7209', { file: '', message: `no registry at ${w.store.location}` });
  return w.store.exclusive(async () => {
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptOp(w, build);
      if (outcome !== 'lost') return outcome;
      if (attempt === CAS_ATTEMPTS) throw registryError('RC7207', { file: 'index', message: `lost the compare-and-swap ${CAS_ATTEMPTS} times` });
    }
  });
}

function checkKeys(w: WriterOptions, name: OpName): void {
  const role = ROLE_OF[name];
  const counting = new Set(w.keys.filter((k) => keyStanding(w.trust, k.keyid, role) === 'counts').map((k) => k.keyid));
  const need = w.trust.roles[role].threshold;
  if (counting.size >= need && w.trust.roles[role].keys.size > 0) return;
  const given = w.keys.length === 0 ? 'no --key was given' : `${counting.size} of the given keys ${counting.size === 1 ? 'is' : 'are'} trusted for it`;
  throw registryError('RC7306', { file: w.trust.file, message: `${name} needs ${need} signature${need === 1 ? '' : 's'} of the ${role} role; ${given}` });
}

/** The latest index, its signatures checked and its last step replayed; GENESIS when there is none. */
export async function latestChecked(store: Store, trust: TrustPolicy): Promise<{ point: ChainPoint; index: VerifiedIndex | null }> {
  const head = await store.latestIndex();
  if (head === null) return { point: GENESIS, index: null };
  let prev = GENESIS;
  if (head.seq > 1) {
    const bytes = await store.indexAt(head.seq - 1);
    if (bytes === null) throw registryError('RC7205', { file: `index/${head.seq - 1}`, message: `index seq ${head.seq - 1} is missing` });
    const read = readIndex(bytes, trust, `index/${head.seq - 1}`);
    if (!read.ok) throw new RegistryError(read.diagnostic);
    prev = pointOf(read.index);
  }
  const step = verifyStep(prev, head.bytes, trust, `index/${head.seq}`);
  if (!step.ok) throw new RegistryError(step.diagnostic);
  return { point: pointOf(step.index), index: step.index };
}

async function attemptOp(w: WriterOptions, build: OpBuilder): Promise<OpOutcome | 'lost'> {
  const now = (w.now ?? (() => new Date()))();
  const { point, index } = await latestChecked(w.store, w.trust);
  const diagnostics: Diagnostic[] = [];
  const audit = await settleAudit(w.store, index, now.toISOString(), diagnostics);

  const seq = point.seq + 1;
  const op = { ...build(point.state, seq), actor: w.actor };
  const next = transition(point.state, op, seq);
  if (!next.ok) throw new RegistryError(next.diagnostic, diagnostics);

  const by = [...new Set(w.keys.map((k) => k.keyid))].sort();
  const at = now.toISOString();
  const entry = opEntry({ doc: { seq, at, op }, by }, audit.entries + 1, audit.head);
  const doc: IndexDoc = {
    schema: INDEX_SCHEMA_ID, seq, prev: point.digest, at,
    expires: new Date(now.getTime() + (w.lifetimeMs ?? DEFAULT_INDEX_LIFETIME_MS)).toISOString(),
    op, audit: { head: entryHash(entry), entries: entry.entry }, state: next.state,
  };
  const bytes = envelopeBytes(signEnvelope(PAYLOAD_TYPE.index, Buffer.from(canonicalJson(doc)), w.keys));
  const won = await w.store.casIndex(point.seq, { bytes, audit: entryLine(entry), auditAt: audit.size });
  if (!won) return 'lost';
  const committed = readIndex(bytes, w.trust, `index/${seq}`);
  if (!committed.ok) throw new RegistryError(committed.diagnostic);
  return { index: committed.index, diagnostics: [...diagnostics, ...servingWarnings(point.state, next.state)] };
}

/** Step 3: the audit log's tail is consistent with the latest index (repairing a crash's leftovers). */
async function settleAudit(store: Store, latest: VerifiedIndex | null, now: string, out: Diagnostic[]): Promise<{ head: string | null; entries: number; size: number }> {
  const { size } = await store.readAudit(Number.MAX_SAFE_INTEGER);
  const from = Math.max(0, size - AUDIT_TAIL_BYTES);
  const tail = await store.readAudit(from);
  const ref: IndexStepRef | null = latest && { doc: latest.doc, by: latest.by };
  const plan = checkAuditTail(tail.bytes, from, ref, now);
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new RegistryError(errors[0] as Diagnostic, errors.slice(1));
  out.push(...plan.diagnostics);
  if (!plan.repair) return { head: plan.head, entries: plan.entries, size: tail.size };
  const text = plan.repair.append.map(entryLine).join('');
  await store.appendAudit(plan.repair.keep, text);
  return { head: plan.head, entries: plan.entries, size: plan.repair.keep + Buffer.byteLength(text) };
}

/** RC7120 for each channel that served a bundle before the operation and serves nothing after it. */
function servingWarnings(before: RegistryState, after: RegistryState): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [name, ch] of Object.entries(after.channels)) {
    const was = before.channels[name];
    if (was?.promoted && ch.promoted === null) {
      out.push(diag('RC7120', { file: '', message: `channel ${name} has no last known good bundle to restore: it now serves nothing and admissions fail closed` }));
    }
  }
  return out;
}
