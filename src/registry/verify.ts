/**
 * `registry verify`: check a whole store, and repair what a crash leaves.
 *
 * Under the writers' lock (so no writer runs meanwhile, and a dead writer's
 * lock is removed):
 * 1. remove leftovers of interrupted writers (temp files) (RC7210);
 * 2. verify the index chain from seq 1 to the latest: signatures, links and
 *    replay of every operation (RC72xx, RC73xx);
 * 3. check every blob the latest state references: each manifest (digest,
 *    schema, bundle id), its signature envelope (publish threshold), and each
 *    context and attachment text (RC7202, RC7203, RC70xx, RC73xx);
 * 4. when the chain verified, check the audit log against it and, when the
 *    only damage in the whole store is what a crash leaves (a torn last line, the latest index's missing entry),
 *    repair it and log the repair (RC7504, RC7505); anything else is an
 *    error (RC7501–RC7503, RC7506).
 */
import { listedFiles } from '../bundle/layout.js';
import { parseManifestFetched } from '../bundle/parse-manifest.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { checkAudit, entryLine, parseAudit, type IndexStepRef } from './audit.js';
import { readBlob } from './bundle-blobs.js';
import { GENESIS, pointOf, verifyStep, type ChainPoint, type VerifiedIndex } from './chain.js';
import { RegistryError, registryError } from './errors.js';
import type { RegistryState } from './model.js';
import { verifyManifestSignature } from './sign.js';
import type { Store } from './store.js';
import type { TrustPolicy } from './trust.js';

export interface VerifyReport {
  diagnostics: Diagnostic[];
  /** The latest index that verified (null: none did). */
  latest: VerifiedIndex | null;
  /** Number of blobs checked. */
  blobs: number;
  repaired: boolean;
}

export async function verifyRegistry(store: Store, trust: TrustPolicy, now: () => Date = () => new Date()): Promise<VerifyReport> {
  if (!(await store.exists())) throw registryError('RC7209', { file: '', message: `no registry at ${store.location}` });
  return store.exclusive(async () => {
    const diagnostics = (await store.sweep()).map((note) => diag('RC7210', { file: '', message: note }));
    const chain = await verifyChain(store, trust, diagnostics);
    const chainOk = !diagnostics.some((d) => d.severity === 'error');
    const latest = chain.at(-1) ?? null;
    const blobs = latest ? await verifyBlobs(store, trust, latest.doc.state, diagnostics) : 0;
    const repaired = chainOk ? await verifyAudit(store, chain, now().toISOString(), diagnostics) : false;
    return { diagnostics, latest, blobs, repaired };
  });
}

/** Step 2: every index from seq 1, verified; stops at the first that does not verify (its diagnostic in `out`). */
export async function verifyChain(store: Store, trust: TrustPolicy, out: Diagnostic[]): Promise<VerifiedIndex[]> {
  const head = await store.latestIndex();
  const chain: VerifiedIndex[] = [];
  let point: ChainPoint = GENESIS;
  for (let seq = 1; head !== null && seq <= head.seq; seq++) {
    const bytes = await store.indexAt(seq);
    if (bytes === null) {
      out.push(diag('RC7205', { file: `index/${seq}`, message: `index seq ${seq} is missing (the latest is ${head.seq})` }));
      break;
    }
    const step = verifyStep(point, bytes, trust, `index/${seq}`);
    if (!step.ok) {
      out.push(step.diagnostic);
      break;
    }
    chain.push(step.index);
    point = pointOf(step.index);
  }
  return chain;
}

async function verifyBlobs(store: Store, trust: TrustPolicy, state: RegistryState, out: Diagnostic[]): Promise<number> {
  const checked = new Set<string>();
  const seen = new Set<string>();
  const check = async (digest: string, what: string): Promise<Buffer | null> => {
    seen.add(digest);
    try {
      const bytes = await readBlob(store, digest, what);
      checked.add(digest);
      return bytes;
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      out.push(e.diagnostic);
      return null;
    }
  };
  for (const [digest, record] of Object.entries(state.bundles)) {
    const raw = await check(digest, `the manifest of ${record.bundle_id}`);
    const envelope = await check(record.signature, `the manifest signature of ${record.bundle_id}`);
    if (raw === null) continue;
    // Each part is a blob too: checked (and reported) like any other, then joined.
    const parsed = await parseManifestFetched(raw, (rel, sha256) => check(sha256, `${rel} of ${record.bundle_id}`));
    if (!parsed.ok) {
      out.push({ ...parsed.diagnostic, file: `blobs/${digest}`, message: `${record.bundle_id}: ${parsed.diagnostic.message}` });
      continue;
    }
    if (envelope !== null) {
      const unsigned = verifyManifestSignature(raw, { envelope, trust, seq: record.published_seq });
      if (unsigned) out.push({ ...unsigned, file: `blobs/${record.signature}`, message: `${record.bundle_id}: ${unsigned.message}` });
    }
    for (const [rel, want] of listedFiles(parsed.manifest)) if (!seen.has(want.sha256)) await check(want.sha256, `${rel} of ${record.bundle_id}`);
  }
  return checked.size;
}

async function verifyAudit(store: Store, chain: readonly VerifiedIndex[], now: string, out: Diagnostic[]): Promise<boolean> {
  const { bytes } = await store.readAudit(0);
  const steps: IndexStepRef[] = chain.map((v) => ({ doc: v.doc, by: v.by }));
  const plan = checkAudit(parseAudit(bytes), steps, now);
  out.push(...plan.diagnostics);
  // Repair only a store with nothing else wrong: a damaged store is reported as found.
  if (plan.repair === null || out.some((d) => d.severity === 'error')) return false;
  await store.appendAudit(plan.repair.keep, plan.repair.append.map(entryLine).join(''));
  return true;
}
