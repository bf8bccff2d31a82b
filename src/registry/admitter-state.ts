/**
 * What an admitter keeps on its own machine (default `.rulec/admit/`), apart
 * from any store: its pins, the last index it trusted, and the bundles it
 * fetched.
 *
 *   pins/<run>.json       one pin per run (schemas/registry-pin.schema.json),
 *                         created with link(2): a run is pinned exactly once
 *   trusted.dsse.json     the last trusted index envelope: the checkpoint the
 *                         next admission's chain starts from, and the anchor
 *                         of the rollback and equivocation checks
 *   bundles/<hex>/        verified bundle directories, <hex>.dsse.json beside
 *   lock, tmp/            the checkpoint is only advanced under the lock
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../bundle/read-regular.js';
import { canonicalJson } from '../util/canonical-json.js';
import { digestOf } from '../util/hash.js';
import type { VerifiedIndex } from './chain.js';
import { registryError } from './errors.js';
import { parseIndexDoc } from './index-doc.js';
import { GRAMMAR } from './model.js';
import { parseEnvelope, PAYLOAD_TYPE } from './sign.js';
import { createDurable, isErrno, replaceDurable } from './stores/durable.js';
import { withLock } from './stores/lock.js';

export const PIN_SCHEMA_ID = 'https://rulec.dev/schemas/registry-pin-v1.json';

/** A run bound to one bundle snapshot at admission. */
export interface Pin {
  schema: typeof PIN_SCHEMA_ID;
  run: string;
  subject: string | null;
  bundle: string;
  digest: string;
  index_seq: number;
  channel: string;
  /** The subject's bucket in the channel's canary at admission (null: no subject or no canary). */
  bucket: number | null;
  canary: boolean;
  admitted_at: string;
  /** The bundle directory, relative to the state directory. */
  path: string;
}

export interface Checkpoint {
  seq: number;
  digest: string;
  index: VerifiedIndex;
}

const PIN_KEYS = ['admitted_at', 'bucket', 'bundle', 'canary', 'channel', 'digest', 'index_seq', 'path', 'run', 'schema', 'subject'];

export class AdmitterState {
  constructor(readonly root: string) {}

  get bundlesDir(): string {
    return join(this.root, 'bundles');
  }

  init(): void {
    for (const d of ['pins', 'bundles', 'tmp']) mkdirSync(join(this.root, d), { recursive: true });
  }

  private pinPath(run: string): string {
    if (!GRAMMAR.runId.test(run)) throw registryError('RC7410', { file: 'pins', message: `not a run id: ${JSON.stringify(run)}` });
    return join(this.root, 'pins', `${run}.json`);
  }

  readPin(run: string): Pin | null {
    const r = readRegularFile(this.pinPath(run), 64 * 1024);
    if (!r.ok && r.why === 'missing') return null;
    const pin = r.ok ? parsePin(r.bytes.toString('utf8')) : null;
    if (pin === null || pin.run !== run) throw registryError('RC7410', { file: `pins/${run}.json`, message: `the pin of run ${run} is not a valid pin` });
    return pin;
  }

  /** Pin a run; false when it is already pinned (the existing pin stands). */
  createPin(pin: Pin): boolean {
    this.init();
    return createDurable(join(this.root, 'tmp'), this.pinPath(pin.run), join(this.root, 'pins'), `${canonicalJson(pin)}\n`, `pin ${pin.run}`);
  }

  listPins(): Pin[] {
    let names: string[];
    try {
      names = readdirSync(join(this.root, 'pins')).filter((n) => n.endsWith('.json')).sort();
    } catch (e) {
      if (isErrno(e, 'ENOENT')) return [];
      throw e;
    }
    return names.map((n) => this.readPin(n.slice(0, -5))).filter((p): p is Pin => p !== null);
  }

  /** The last trusted index; it was verified when it was stored, so only its shape is checked. */
  readCheckpoint(): Checkpoint | null {
    const r = readRegularFile(join(this.root, 'trusted.dsse.json'));
    if (!r.ok && r.why === 'missing') return null;
    const bad = (): never => { throw registryError('RC7410', { file: 'trusted.dsse.json', message: 'the trusted-index checkpoint is not a signed registry index' }); };
    if (!r.ok) return bad();
    const env = parseEnvelope(r.bytes, PAYLOAD_TYPE.index, 'trusted.dsse.json');
    if (!env.ok) return bad();
    const doc = parseIndexDoc(env.payload, 'trusted.dsse.json');
    if (!doc.ok) return bad();
    const text = r.bytes.toString('utf8');
    const digest = digestOf(text);
    return { seq: doc.doc.seq, digest, index: { seq: doc.doc.seq, digest, doc: doc.doc, by: env.envelope.signatures.map((s) => s.keyid), bytes: text } };
  }

  /** Trust `index` from now on, unless a newer one was trusted meanwhile (never moves back). */
  async advanceCheckpoint(index: VerifiedIndex): Promise<void> {
    this.init();
    await withLock({ path: join(this.root, 'lock'), tmpDir: join(this.root, 'tmp'), timeoutMs: 30_000 }, async () => {
      const current = this.readCheckpoint();
      if (current !== null && current.seq >= index.seq) return;
      replaceDurable(join(this.root, 'tmp'), join(this.root, 'trusted.dsse.json'), this.root, index.bytes, 'checkpoint');
    });
  }
}

export function parsePin(text: string): Pin | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const p = v as Record<string, unknown>;
  if (Object.keys(p).sort().join() !== PIN_KEYS.join()) return null;
  const ok = p.schema === PIN_SCHEMA_ID && typeof p.run === 'string' && GRAMMAR.runId.test(p.run)
    && (p.subject === null || typeof p.subject === 'string') && typeof p.bundle === 'string' && GRAMMAR.bundleId.test(p.bundle)
    && typeof p.digest === 'string' && GRAMMAR.digest.test(p.digest) && Number.isSafeInteger(p.index_seq)
    && typeof p.channel === 'string' && GRAMMAR.channel.test(p.channel) && (p.bucket === null || Number.isSafeInteger(p.bucket))
    && typeof p.canary === 'boolean' && typeof p.admitted_at === 'string' && p.path === `bundles/${p.digest.slice(7)}`;
  return ok ? (v as Pin) : null;
}
