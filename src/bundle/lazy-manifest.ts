/**
 * A manifest read part by part (model.ts says which table sits in which
 * part): a path's lookup reads the index part of its top-level directory and
 * the root's, its variant's part, and the conflict parts that variant lists
 * and the list of the sources their sides name (each event as a path reader
 * shows it: never the conflict-details part).
 * `part(name)` returns a part already checked against the digest the root
 * records for it (openBundle reads and verifies each once).
 */
import { CONFLICT_SOURCES_PART, rulingOf, type ConflictRuling, type StoredRuling } from './conflict-parts.js';
import type { ManifestLookup } from './manifest-lookup.js';
import { conflictPartOf, indexPartOf, variantPartOf, type ManifestAttachment, type ManifestFile, type ManifestRoot, type VariantsPart } from './model.js';

const own = <T>(o: Readonly<Record<string, T>>, k: string): T | undefined => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
const EMPTY: Readonly<Record<string, never>> = Object.freeze(Object.create(null) as Record<string, never>);

/** `refuse(message)` throws: a part that the root pins but that contradicts another part (a forged or corrupt bundle). */
export function lazyLookup(root: ManifestRoot, part: (name: string) => unknown, refuse: (message: string) => never): ManifestLookup {
  const { parts, entries: _entries, ...head } = root;
  const table = <T>(name: string): T | undefined => (own(parts, name) !== undefined ? (part(name) as T) : undefined);
  const variants = (id: string): VariantsPart | undefined => table<VariantsPart>(variantPartOf(id));
  const eventsByPart = new Map<string, Map<string, StoredRuling>>();
  const event = (id: string): ConflictRuling => {
    const name = conflictPartOf(id);
    let byId = eventsByPart.get(name);
    if (byId === undefined) eventsByPart.set(name, (byId = new Map((table<StoredRuling[]>(name) ?? []).map((e) => [e.id, e]))));
    const stored = byId.get(id) ?? refuse(`a variant lists conflict event ${id}, which no conflicts part holds`);
    const ruling = rulingOf(stored, table<string[]>(CONFLICT_SOURCES_PART) ?? []);
    return typeof ruling === 'string' ? refuse(ruling) : ruling;
  };
  const indexEntry = (dir: string): string | undefined => {
    const shard = table<Record<string, string>>(indexPartOf(dir));
    return shard === undefined ? undefined : own(shard, dir);
  };
  return {
    head,
    indexes: (dir) => indexEntry(dir) !== undefined,
    indexEntry,
    variant: (id) => own(variants(id)?.variants ?? EMPTY, id),
    files: () => table<Record<string, ManifestFile>>('files') ?? EMPTY,
    attachments: () => table<Record<string, ManifestAttachment>>('attachments') ?? EMPTY,
    conflictsOf: (id) => (own(variants(id)?.conflicts ?? EMPTY, id) ?? []).map(event),
  };
}
