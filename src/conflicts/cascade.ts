/**
 * The authority cascade: who wins when two sources disagree on a topic.
 *
 * 1. A managed source with `enforce: true` cannot be overridden: a lower
 *    source that contradicts it is a violation, and the managed rule stands.
 * 2. Otherwise the more specific scope wins. Managed and user files sit
 *    outside the repository (specificity -1); a standing file counts the depth
 *    of its directory (root 0, packages/api 2); a glob-scoped rule counts the
 *    depth of its globs' literal base plus one half, so `packages/api/**`
 *    outranks packages/api/AGENTS.md and `**\/*.test.ts` outranks the root.
 * 3. Within one scope, the policy's layer order decides (default managed,
 *    repo, path, local, user): a reviewed file beats an unreviewed one.
 * 4. Same scope, same layer: no winner — a contradiction the agent resolves
 *    arbitrarily, so a human must.
 */
import type { Layer } from '../types.js';
import type { ResolvedSource } from '../resolve/resolve.js';

export const DEFAULT_LAYER_ORDER: readonly Layer[] = ['managed', 'repo', 'path', 'local', 'user'];

export interface Authority {
  source: string;
  layer: Layer;
  enforced: boolean;
  specificity: number;
  /** Human scope: '.', a directory, `globs: …`, 'managed' or 'user'. */
  scope: string;
}

export type RulingKind = 'override' | 'violation' | 'contradiction';

export interface Ruling {
  kind: RulingKind;
  /** Index of the winning side (0 or 1), or null for a contradiction. */
  winner: 0 | 1 | null;
  reason: string;
}

export function authorityOf(s: ResolvedSource): Authority {
  const layer = s.info.layer;
  const enforced = layer === 'managed' && s.doc.frontmatter?.enforce === true;
  if (layer === 'managed' || layer === 'user') return { source: s.file.id, layer, enforced, specificity: -1, scope: layer };
  if (s.info.activation === 'attached') {
    const depth = Math.max(...s.info.globs.map((g) => depthOf(globBase(g))));
    return { source: s.file.id, layer, enforced, specificity: depth + 0.5, scope: `globs: ${s.info.rawGlobs.join(', ')}` };
  }
  const scope = s.file.scope;
  return { source: s.file.id, layer, enforced, specificity: depthOf(scope), scope: scope === '' ? '.' : scope };
}

/** The literal directory prefix of a glob: `packages/api/**` → `packages/api`, `**\/*.ts` → ''. */
export function globBase(glob: string): string {
  const parts = glob.split('/');
  const out: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (/[*?[\]{}!]/.test(p)) break;
    out.push(p);
  }
  return out.join('/');
}

function depthOf(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}

function describeScope(a: Authority): string {
  if (a.scope === '.') return 'the repository root';
  if (a.scope === 'managed') return 'the managed policy';
  if (a.scope === 'user') return 'the user\'s personal files';
  if (a.scope.startsWith('globs: ')) return `files matching ${a.scope.slice(7)}`;
  return a.scope;
}

export function rule(a: Authority, b: Authority, layerOrder: readonly Layer[] = DEFAULT_LAYER_ORDER): Ruling {
  if (a.enforced !== b.enforced) {
    const w: 0 | 1 = a.enforced ? 0 : 1;
    const [enf, other] = w === 0 ? [a, b] : [b, a];
    return { kind: 'violation', winner: w,
      reason: `${enf.source} is a managed rule marked enforce: true; ${other.source} (${other.layer}) may not override it` };
  }
  if (a.enforced && b.enforced) return { kind: 'contradiction', winner: null, reason: 'two enforced managed rules disagree; fix the managed policy' };
  if (a.specificity !== b.specificity) {
    const w: 0 | 1 = a.specificity > b.specificity ? 0 : 1;
    const [win, lose] = w === 0 ? [a, b] : [b, a];
    return { kind: 'override', winner: w, reason: `more specific scope: ${describeScope(win)} is narrower than ${describeScope(lose)}` };
  }
  const ra = rankOf(a.layer, layerOrder);
  const rb = rankOf(b.layer, layerOrder);
  if (ra !== rb) {
    const w: 0 | 1 = ra < rb ? 0 : 1;
    const [win, lose] = w === 0 ? [a, b] : [b, a];
    return { kind: 'override', winner: w, reason: `same scope (${describeScope(win)}); layer ${win.layer} comes before ${lose.layer} in the policy's layer order` };
  }
  return { kind: 'contradiction', winner: null,
    reason: `same scope (${describeScope(a)}) and layer (${a.layer}): no cascade rule decides, so agents may follow either` };
}

function rankOf(layer: Layer, order: readonly Layer[]): number {
  const i = order.indexOf(layer);
  return i < 0 ? order.length : i;
}
