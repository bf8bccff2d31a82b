/**
 * The read side of an OCI registry mirror (`--store oci://HOST/REPO`, what
 * `admit --from` reads): the Store contract for readers, over the layout of
 * remote/oci-layout.ts. It is written only by `rulec registry mirror`; every
 * write of the Store interface, and exclusive() (writers and verify's
 * repairs), is refused here (RC7614).
 *
 * 1. latestIndex: the `index` tag's artifact, its envelope blob, and the seq
 *    that envelope claims; then `index-<seq+1>`, … while they exist, so a
 *    head tag that lags the history (an interrupted mirror, or one pointed
 *    back) never hides a newer index the mirror holds.
 * 2. indexAt(seq): the `index-<seq>` artifact's envelope; an artifact that
 *    holds another seq is RC7701.
 * 3. getBlob(digest): the blob, hashed as it streams and refused unless it is
 *    `digest` (RC7702), cut at the size limit (RC7612).
 * The admitter verifies everything it reads against the trust file and its
 * checkpoint (admit.ts): a registry can withhold, never forge.
 */
import { registryError } from '../errors.js';
import { OciClient, type OciOptions } from '../remote/oci-client.js';
import { envelopeSeq, HEAD_TAG, indexTag, parseIndexArtifact, type IndexArtifact } from '../remote/oci-layout.js';
import type { IndexHead, Store } from '../store.js';

export type { OciOptions } from '../remote/oci-client.js';

export class OciStore implements Store {
  readonly location: string;
  readonly client: OciClient;
  /** Index envelopes by seq, and by digest with the seq they claim: content the chain verifies, so a process may keep what it read. */
  private readonly envelopes = new Map<number, Buffer>();
  private readonly byDigest = new Map<string, { bytes: Buffer; seq: number }>();
  private head: IndexArtifact | null = null;

  constructor(spec: string, options: OciOptions = {}) {
    this.client = new OciClient(spec, options);
    this.location = this.client.ref.display;
  }

  close(): void {
    this.client.close();
  }

  async exists(): Promise<boolean> {
    return (await this.client.headManifest(HEAD_TAG)) !== null;
  }

  private readOnly(what: string): Error {
    return registryError('RC7614', { file: '', message: `${this.location} is a mirror and cannot ${what}`, hint: 'publishers write to the authoritative store (a directory or git+URL); rulec registry mirror --to copies it here' });
  }

  async init(): Promise<void> {
    throw this.readOnly('be initialised');
  }

  async putBlob(): Promise<string> {
    throw this.readOnly('take a blob');
  }

  async casIndex(): Promise<boolean> {
    throw this.readOnly('commit an index');
  }

  async appendAudit(): Promise<void> {
    throw this.readOnly('append to its audit log');
  }

  async getBlob(digest: string): Promise<Buffer | null> {
    return this.client.getBlob(digest);
  }

  /** An index artifact by tag and its envelope; null when the tag does not exist. */
  private async artifact(tag: string): Promise<{ artifact: IndexArtifact; bytes: Buffer; seq: number } | null> {
    const m = await this.client.getManifest(tag);
    if (m === null) return null;
    const artifact = parseIndexArtifact(m.bytes, tag, this.location);
    // An envelope is content-addressed: one read before (an unchanged head, polled by every admission) is the same bytes.
    const known = this.byDigest.get(artifact.envelope.digest);
    if (known) return { artifact, ...known };
    const bytes = await this.client.getBlob(artifact.envelope.digest);
    if (bytes === null) throw registryError('RC7202', { file: tag, message: `${this.location}: the index envelope of tag ${tag} (${artifact.envelope.digest.slice(0, 19)}) is missing` });
    const read = { bytes, seq: envelopeSeq(bytes, tag, this.location) };
    this.byDigest.set(artifact.envelope.digest, read);
    return { artifact, ...read };
  }

  async latestIndex(): Promise<IndexHead | null> {
    const head = await this.artifact(HEAD_TAG);
    if (head === null) return null;
    this.head = head.artifact;
    let latest: IndexHead = { seq: head.seq, bytes: head.bytes };
    for (;;) {
      const next = await this.indexAt(latest.seq + 1);
      if (next === null) return latest;
      latest = { seq: latest.seq + 1, bytes: next };
    }
  }

  async indexAt(seq: number): Promise<Buffer | null> {
    const known = this.envelopes.get(seq);
    if (known) return known;
    const tag = indexTag(seq);
    const a = await this.artifact(tag);
    if (a === null) return null;
    if (a.seq !== seq) throw registryError('RC7701', { file: tag, message: `${this.location}: tag ${tag} holds index seq ${a.seq}` });
    this.envelopes.set(seq, a.bytes);
    return a.bytes;
  }

  /** The audit log as the mirror's latest index artifact carries it. */
  async readAudit(from = 0): Promise<{ bytes: Buffer; size: number }> {
    if (this.head === null) await this.latestIndex();
    const audit = this.head?.audit ? await this.client.getBlob(this.head.audit.digest) : null;
    const bytes = audit ?? Buffer.alloc(0);
    return { bytes: bytes.subarray(Math.min(Math.max(0, from), bytes.length)), size: bytes.length };
  }

  /** Only writers (and verify's repairs) ask for exclusive access: a mirror has none to give. */
  async exclusive<T>(): Promise<T> {
    throw this.readOnly('take writers (verify the authoritative store; admit verifies what it reads from a mirror)');
  }

  async sweep(): Promise<string[]> {
    return [];
  }
}
