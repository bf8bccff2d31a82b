/**
 * What rulec puts in an OCI repository, and how it reads it back (pure).
 *
 * Blobs are stored under their own sha256, which is the digest the registry
 * index already names (a bundle digest is the sha256 of its manifest), so an
 * admitter fetches every blob by the digest the signed index gives it.
 * Two kinds of artifact (OCI image manifests with an `artifactType` and the
 * empty config) keep those blobs referenced and findable:
 *
 *   bundle  artifactType application/vnd.rulec.bundle.v1+json, tag
 *           `bundle-<64 hex>`; layers: the rulec manifest, its signature
 *           envelope, every context and attachment text (titled by path)
 *   index   artifactType application/vnd.rulec.registry-index.v1+json, tag
 *           `index-<seq:12>` for every signed index; its one layer is the
 *           index envelope. The tag `index` names the latest, with a second
 *           layer: the audit log as of that index.
 *
 * Tags are last-writer-wins and the registry is untrusted: nothing read here
 * is believed until the signed index chain verifies it (admit.ts), and a tag
 * whose artifact is not of this shape is refused (RC7701).
 */
import { canonicalJson } from '../../util/canonical-json.js';
import { digestOf } from '../../util/hash.js';
import { registryError } from '../errors.js';
import { GRAMMAR } from '../model.js';
import { PAYLOAD_TYPE } from '../sign.js';
import { MANIFEST_MEDIA_TYPE } from './oci-client.js';

export const ARTIFACT = {
  bundle: 'application/vnd.rulec.bundle.v1+json',
  index: PAYLOAD_TYPE.index,
} as const;

export const LAYER = {
  manifest: PAYLOAD_TYPE.manifest,
  envelope: 'application/vnd.dsse.envelope.v1+json',
  text: 'text/markdown',
  audit: 'application/vnd.rulec.registry-audit.v1+jsonl',
} as const;

export const EMPTY_CONFIG = { mediaType: 'application/vnd.oci.empty.v1+json', digest: digestOf('{}'), size: 2 } as const;
export const EMPTY_CONFIG_BYTES = Buffer.from('{}');

export const HEAD_TAG = 'index';
export const indexTag = (seq: number): string => `index-${String(seq).padStart(12, '0')}`;
export const bundleTag = (digest: string): string => `bundle-${digest.slice(7)}`;

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

const TITLE = 'org.opencontainers.image.title';

/** An artifact manifest's bytes (canonical JSON, so the same content gives the same digest). */
export function artifactManifest(artifactType: string, layers: Descriptor[], annotations: Record<string, string> = {}): Buffer {
  return Buffer.from(canonicalJson({
    schemaVersion: 2, mediaType: MANIFEST_MEDIA_TYPE, artifactType, config: EMPTY_CONFIG, layers,
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  }));
}

export function layer(mediaType: string, bytes: Uint8Array, title?: string): Descriptor {
  return { mediaType, digest: digestOf(bytes), size: bytes.length, ...(title ? { annotations: { [TITLE]: title } } : {}) };
}

export interface IndexArtifact {
  envelope: Descriptor;
  audit: Descriptor | null;
}

/** Read an index artifact manifest served under `tag`; anything but the documented shape is RC7701. */
export function parseIndexArtifact(bytes: Buffer, tag: string, display: string): IndexArtifact {
  const bad = (why: string) => registryError('RC7701', { file: tag, message: `${display}: tag ${tag} is not a rulec index artifact: ${why}` });
  let m: unknown;
  try {
    m = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw bad('its manifest is not JSON');
  }
  const v = m as { schemaVersion?: unknown; mediaType?: unknown; artifactType?: unknown; layers?: unknown };
  if (typeof m !== 'object' || m === null || v.schemaVersion !== 2) throw bad('not an OCI image manifest (schemaVersion 2)');
  if (v.mediaType !== undefined && v.mediaType !== MANIFEST_MEDIA_TYPE) throw bad(`media type ${String(v.mediaType)}`);
  if (v.artifactType !== ARTIFACT.index) throw bad(`artifactType ${JSON.stringify(v.artifactType)}, expected ${ARTIFACT.index}`);
  if (!Array.isArray(v.layers) || v.layers.length < 1 || v.layers.length > 2 || !v.layers.every(isDescriptor)) throw bad('it must have the index envelope as its layer (and the audit log after it)');
  const [envelope, audit] = v.layers as Descriptor[];
  if (envelope?.mediaType !== LAYER.envelope) throw bad(`its first layer is ${envelope?.mediaType}, not ${LAYER.envelope}`);
  if (audit !== undefined && audit.mediaType !== LAYER.audit) throw bad(`its second layer is ${audit.mediaType}, not ${LAYER.audit}`);
  return { envelope: envelope as Descriptor, audit: audit ?? null };
}

function isDescriptor(d: unknown): d is Descriptor {
  const v = d as Descriptor;
  return typeof d === 'object' && d !== null && typeof v.mediaType === 'string' && typeof v.digest === 'string' && GRAMMAR.digest.test(v.digest) && Number.isSafeInteger(v.size) && v.size >= 0;
}

/**
 * The seq an index envelope claims. Unverified, and read lightly (the payload's
 * `seq` alone): it only places the envelope in the chain, which verifies the
 * whole envelope at that place.
 */
export function envelopeSeq(bytes: Buffer, tag: string, display: string): number {
  let seq: unknown;
  try {
    const env = JSON.parse(bytes.toString('utf8')) as { payloadType?: unknown; payload?: unknown };
    if (env.payloadType === PAYLOAD_TYPE.index && typeof env.payload === 'string') seq = (JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8')) as { seq?: unknown }).seq;
  } catch {
    seq = undefined;
  }
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) throw registryError('RC7701', { file: tag, message: `${display}: tag ${tag} holds no signed registry index (an envelope of ${PAYLOAD_TYPE.index} with a seq)` });
  return seq as number;
}
