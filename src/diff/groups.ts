/**
 * Path groups: the directories of both trees, grouped by the pair
 * (old variant → new variant) that serves them (pure, linear).
 *
 * 1. Every directory's variant is its nearest indexed ancestor's, on either
 *    side. So the union of both indexes partitions the tree: a directory in
 *    neither index has the pair of its nearest ancestor in the union.
 * 2. Group the union's directories by pair; a pair whose text and agent
 *    figures are the same on both sides is unchanged.
 * 3. With the new side's path list, count each path in the group of its
 *    nearest union ancestor (one upward walk per distinct directory,
 *    memoised); otherwise the unit is the union's directories.
 */
import type { ManifestV1, ManifestVariant } from '../bundle/model.js';
import { variantFor } from '../bundle/serving.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compareCodeUnits } from '../util/compare.js';
import { dirnameOf } from '../util/posix-path.js';
import type { DiffUnit } from './path-group.js';

export interface Group {
  key: string;
  oldId: string;
  newId: string;
  old: ManifestVariant;
  new: ManifestVariant;
  /** Text (and so tokens) differs; false when only agent-profile figures differ. */
  textChanged: boolean;
  /** Anything an agent gets differs: the variant, its text or its per-agent figures. */
  changed: boolean;
  /** Union directories, sorted. */
  dirs: string[];
  /** Units (paths or union directories) served, with up to 3 examples (smallest first). */
  units: number;
  examples: string[];
  /** Per union directory: units it serves and up to 3 example paths. */
  byDir: Map<string, { count: number; examples: string[] }>;
}

export interface Grouping {
  unit: DiffUnit;
  /** Units of the new side in all. */
  total: number;
  /** Changed groups only. */
  changed: Group[];
}

export function groupPaths(oldM: ManifestV1, newM: ManifestV1, paths: readonly string[] | null): Grouping {
  const union = [...new Set([...Object.keys(oldM.index), ...Object.keys(newM.index)])].sort(compareCodeUnits);
  const groups = new Map<string, Group>();
  const groupOfDir = new Map<string, Group | null>();
  for (const dir of union) {
    const oldId = variantFor(oldM.index, dir);
    const newId = variantFor(newM.index, dir);
    const key = `${oldId}>${newId}`;
    let g = groups.get(key);
    if (g === undefined) {
      const o = oldM.variants[oldId];
      const n = newM.variants[newId];
      if (!o || !n) throw new RangeError(`bundle index names a variant its manifest does not list (${o ? newId : oldId})`);
      const textChanged = o.sha256 !== n.sha256;
      const changed = textChanged || oldId !== newId || canonicalJson(o.profiles) !== canonicalJson(n.profiles);
      g = { key, oldId, newId, old: o, new: n, textChanged, changed, dirs: [], units: 0, examples: [], byDir: new Map() };
      groups.set(key, g);
    }
    g.dirs.push(dir);
    groupOfDir.set(dir, g.changed ? g : null);
  }
  if (paths === null) {
    for (const g of groups.values()) for (const d of g.dirs) count(g, d, d === '' ? '.' : d, false);
  } else {
    const unionSet = new Set(union);
    const nearest = new Map<string, string>();
    const nearestOf = (dir: string): string => {
      let hit = nearest.get(dir);
      if (hit === undefined) {
        hit = unionSet.has(dir) || dir === '' ? dir : nearestOf(dirnameOf(dir));
        nearest.set(dir, hit);
      }
      return hit;
    };
    for (const p of paths) {
      const d = nearestOf(dirnameOf(p));
      const g = groupOfDir.get(d);
      if (g) count(g, d, p, true);
    }
  }
  const changed = [...groups.values()].filter((g) => g.changed).sort((a, b) => b.units - a.units || compareCodeUnits(a.newId, b.newId) || compareCodeUnits(a.oldId, b.oldId));
  return { unit: paths === null ? 'directories' : 'paths', total: paths === null ? union.length : paths.length, changed };
}

function count(g: Group, dir: string, example: string, isPath: boolean): void {
  g.units++;
  addExample(g.examples, example);
  let d = g.byDir.get(dir);
  if (!d) g.byDir.set(dir, (d = { count: 0, examples: [] }));
  d.count++;
  if (isPath) addExample(d.examples, example);
}

/** Keep the 3 smallest distinct examples (code-unit order), sorted. */
export function addExample(list: string[], item: string): void {
  if (list.includes(item)) return;
  if (list.length === 3 && compareCodeUnits(item, list[2] as string) >= 0) return;
  let i = list.length;
  while (i > 0 && compareCodeUnits(item, list[i - 1] as string) < 0) i--;
  list.splice(i, 0, item);
  if (list.length > 3) list.pop();
}
