/**
 * Resolve: for every directory of the tree, the ordered sources an agent has
 * at session start there (its standing variant), and the lazily attached rules.
 *
 * 1. Work out each source's activation and effective layer from its format and
 *    frontmatter (activation.ts).
 * 2. Group standing sources by scope directory, in format rank then id order;
 *    a shadowing format's file (AGENTS.override.md) drops the file it shadows
 *    (AGENTS.md) in the same directory.
 * 3. Walk directories parent-first: a directory's list is its parent's list
 *    plus its own sources, each followed by its imports; a file reached twice
 *    (or through a symlink) loads once. Managed sources come first.
 * 4. Directories with identical lists share one variant; its id is derived
 *    from the ordered (id, sha256) pairs, so it never depends on numbering.
 * 5. Each glob-scoped rule becomes an attachment (the rule and its imports).
 *    Steps 1–5 are planResolution(): all that rendering's blocks and the agent
 *    profiles need, so compile() hands those to its worker before step 6.
 * 6. attachRules(): each attachment's globs are matched through the path index
 *    (no all-pairs loop), and a glob that matches nothing is reported; then
 *    attachments that some path matches together are grouped (co-attachment.ts).
 */
import type { ParsedDoc, SourceFile, SourceRef, StageResult } from '../types.js';
import { formatSpec } from '../formats/formats.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compareCodeUnits } from '../util/compare.js';
import { sha256Hex, contentId } from '../util/hash.js';
import { dirnameOf } from '../util/posix-path.js';
import { pushAll } from '../util/push-all.js';
import { unionSize } from '../util/sorted.js';
import { activationOf, type ActivationInfo } from './activation.js';
import { expandImports, type ImportContext } from './expand-imports.js';
import { matchGlob, PathIndex, type GlobMatch } from './glob-index.js';
import { coAttachments, globOwners, type CoAttachment } from './co-attachment.js';
import type { GlobMatches } from './glob-memo.js';

export interface ResolvedSource {
  file: SourceFile;
  doc: ParsedDoc;
  info: ActivationInfo;
  sha256: string;
}

export interface ResolvedVariant {
  id: string;
  sources: SourceRef[];
  /** Directories whose standing list this is (sorted). */
  dirs: string[];
  /** Work-tree paths that resolve to it. */
  pathCount: number;
}

export interface ResolvedAttachment {
  id: string;
  sources: SourceRef[];
  globs: string[];
  matches: number;
}

export interface Resolution {
  sources: Map<string, ResolvedSource>;
  variants: ResolvedVariant[];
  attachments: ResolvedAttachment[];
  /** Attachments that load together on some path (indices into `attachments`), grouped by the paths that load them. */
  together: CoAttachment[];
  /**
   * Directory → variant id, only where it differs from the parent directory's.
   * A null-prototype object: directory names such as `__proto__` or `toString`
   * are plain keys (read it with Object.hasOwn, or as a Map).
   */
  index: Record<string, string>;
}

/** A resolution before its globs are matched (steps 1–5): attachments' `matches` and `together` are not known yet. */
export interface ResolutionPlan extends Pick<Resolution, 'sources' | 'variants' | 'index'> {
  /** In id order; each one's first source is its rule. */
  attachments: Omit<ResolvedAttachment, 'matches'>[];
}

export interface ResolveInput {
  files: readonly SourceFile[];
  docs: ReadonlyMap<string, ParsedDoc>;
  paths: readonly string[];
  imports: Omit<ImportContext, 'docs' | 'places'>;
}

/** Managed first, then the user's personal files (as Claude Code orders them), then the formats' ranks. */
const rankOf = (s: ResolvedSource): number => (s.file.layer === 'managed' ? -2 : s.file.layer === 'user' ? -1 : formatSpec(s.file.format)?.rank ?? 100);
const REASON: Partial<Record<string, string>> = { managed: 'managed policy', user: 'user file (personal, never bundled)' };

export function resolve(input: ResolveInput): StageResult<Resolution> {
  const planned = planResolution(input);
  const attached = attachRules(planned.value, input.paths);
  return { value: attached.value, diagnostics: [...planned.diagnostics, ...attached.diagnostics] };
}

/** Steps 1–5: the sources, the standing variants, and each glob-scoped rule's attachment, unmatched. */
export function planResolution(input: ResolveInput): StageResult<ResolutionPlan> {
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, ResolvedSource>();
  for (const file of input.files) {
    const doc = input.docs.get(file.id);
    if (!doc) continue;
    const act = activationOf(file, doc);
    pushAll(diagnostics, act.diagnostics);
    sources.set(file.id, { file, doc, info: act.value, sha256: sha256Hex(file.bytes) });
  }
  const ctx: ImportContext = { ...input.imports, docs: input.docs, places: new Map(input.files.map((f) => [f.id, f])) };
  const expansions = new Map<string, SourceRef[]>();
  const expand = (id: string): SourceRef[] => {
    let refs = expansions.get(id);
    if (!refs) {
      const e = expandImports(id, ctx);
      pushAll(diagnostics, e.diagnostics);
      refs = e.value;
      expansions.set(id, refs);
    }
    return refs;
  };

  const byScope = standingByScope(sources);
  const variants = buildVariants(input.paths, byScope, sources, expand);
  const attachments = planAttachments(sources, expand);
  return { value: { sources, variants: variants.list, index: variants.index, attachments }, diagnostics };
}

/**
 * Step 6: match every attachment's globs against the repository's paths, and group those that
 * load together. `globs`: matches an earlier build of these very paths remembered (glob-memo.ts),
 * and where this build's are recorded.
 */
export function attachRules(plan: ResolutionPlan, paths: readonly string[], globs: GlobMatches | null = null): StageResult<Resolution> {
  const diagnostics: Diagnostic[] = [];
  const { attachments, matched } = matchAttachments(plan, paths, globs, diagnostics);
  const globsOf = attachments.map((a) => a.globs);
  const together = globs?.recallTogether(globsOf) ?? coAttachments(globOwners(attachments, matched));
  globs?.rememberTogether(globsOf, together);
  return { value: { sources: plan.sources, variants: plan.variants, attachments, together, index: plan.index }, diagnostics };
}

function standingByScope(sources: Map<string, ResolvedSource>): Map<string, ResolvedSource[]> {
  const byScope = new Map<string, ResolvedSource[]>();
  for (const s of sources.values()) {
    if (s.info.activation !== 'standing') continue;
    const list = byScope.get(s.file.scope);
    if (list) list.push(s);
    else byScope.set(s.file.scope, [s]);
  }
  for (const [scope, list] of byScope) {
    list.sort((a, b) => rankOf(a) - rankOf(b) || compareCodeUnits(a.file.id, b.file.id));
    // A shadowing format (AGENTS.override.md) replaces the shadowed one here; reported as a shadow conflict event (RC3102) by src/conflicts.
    const shadowed = new Set(list.map((s) => formatSpec(s.file.format)?.shadows?.format).filter((f) => f !== undefined));
    if (shadowed.size > 0) byScope.set(scope, list.filter((s) => !shadowed.has(s.file.format)));
  }
  return byScope;
}

interface Chain {
  refs: SourceRef[];
  /** Real identities already on the chain (a symlink and its target are one). */
  seen: Set<string>;
  key: string;
}

function buildVariants(paths: readonly string[], byScope: Map<string, ResolvedSource[]>, sources: Map<string, ResolvedSource>,
  expand: (id: string) => SourceRef[]): { list: ResolvedVariant[]; index: Record<string, string> } {
  const realId = (id: string): string => sources.get(id)?.file.linkTarget ?? id;
  const extend = (parent: Chain, own: ResolvedSource[], why: string): Chain => {
    const refs = [...parent.refs];
    const seen = new Set(parent.seen);
    const add = (ref: SourceRef): void => {
      const real = realId(ref.id);
      if (seen.has(real) || seen.has(ref.id)) return;
      seen.add(real).add(ref.id);
      refs.push(ref);
    };
    for (const s of own) {
      add({ id: s.file.id, reason: REASON[s.file.layer] ?? why });
      for (const imp of expand(s.file.id)) add(imp);
    }
    const key = canonicalJson(refs.map((r) => [r.id, sources.get(r.id)?.sha256 ?? '']));
    return { refs, seen, key };
  };

  const managed = [...sources.values()].filter((s) => s.file.layer === 'managed' && s.info.activation === 'standing')
    .sort((a, b) => compareCodeUnits(a.file.id, b.file.id));
  const rootChain = extend({ refs: [], seen: new Set(), key: '' }, managed, 'managed policy');
  const dirs = new Set<string>(['']);
  const addWithAncestors = (dir: string): void => {
    // Walk up only until a directory already seen: each directory is visited once.
    for (let d = dir; !dirs.has(d); d = dirnameOf(d)) dirs.add(d);
  };
  for (const p of paths) addWithAncestors(dirnameOf(p));
  for (const scope of byScope.keys()) addWithAncestors(scope);

  const chains = new Map<string, Chain>();
  const sortedDirs = [...dirs].sort(compareCodeUnits);
  for (const dir of sortedDirs) {
    const parent = dir === '' ? rootChain : (chains.get(dirnameOf(dir)) as Chain);
    const own = (byScope.get(dir) ?? []).filter((s) => s.file.layer !== 'managed');
    chains.set(dir, own.length === 0 ? parent : extend(parent, own, dir === '' ? 'repository root' : `directory ${dir}`));
  }

  const byKey = new Map<string, ResolvedVariant>();
  const index = Object.create(null) as Record<string, string>;
  const variantOf = new Map<string, ResolvedVariant>();
  for (const dir of sortedDirs) {
    const chain = chains.get(dir) as Chain;
    let v = byKey.get(chain.key);
    if (!v) {
      v = { id: contentId('v-', chain.key), sources: chain.refs, dirs: [], pathCount: 0 };
      byKey.set(chain.key, v);
    }
    v.dirs.push(dir);
    variantOf.set(dir, v);
    const parentVariant = dir === '' ? undefined : variantOf.get(dirnameOf(dir));
    if (parentVariant !== v) index[dir] = v.id;
  }
  for (const p of paths) (variantOf.get(dirnameOf(p)) as ResolvedVariant).pathCount++;
  const list = [...byKey.values()].sort((a, b) => compareCodeUnits(a.id, b.id));
  return { list, index };
}

/** Each glob-scoped rule's attachment (the rule, then its imports), in id order. */
function planAttachments(sources: Map<string, ResolvedSource>, expand: (id: string) => SourceRef[]): Omit<ResolvedAttachment, 'matches'>[] {
  const out: Omit<ResolvedAttachment, 'matches'>[] = [];
  for (const s of sources.values()) {
    if (s.info.activation !== 'attached') continue;
    const refs: SourceRef[] = [{ id: s.file.id, reason: `globs ${s.info.rawGlobs.join(', ')}` }, ...expand(s.file.id)];
    const key = canonicalJson(refs.map((r) => [r.id, sources.get(r.id)?.sha256 ?? '']).concat([s.info.globs]));
    out.push({ id: contentId('a-', key), sources: refs, globs: s.info.globs });
  }
  return out.sort((a, b) => compareCodeUnits(a.id, b.id));
}

/** The attachments with the number of paths each matches, and what each distinct glob matches. */
function matchAttachments(plan: ResolutionPlan, paths: readonly string[], globs: GlobMatches | null, diagnostics: Diagnostic[]):
  { attachments: ResolvedAttachment[]; matched: ReadonlyMap<string, readonly string[]> } {
  const matched = new Map<string, readonly string[]>();
  if (plan.attachments.length === 0) return { attachments: [], matched };
  // Built on the first glob no earlier build remembered.
  let index: PathIndex | null = null;
  const match = (glob: string): GlobMatch => {
    const recalled = globs?.recall(glob);
    if (recalled !== undefined) return { ok: true, matches: recalled };
    const ix = (index ??= new PathIndex(paths));
    const m = matchGlob(ix, glob);
    if (m.ok) globs?.record(glob, m.matches, (p) => ix.positionOf(p));
    return m;
  };
  const cache = new Map<string, GlobMatch>();
  const attachments = plan.attachments.map((a): ResolvedAttachment => {
    const s = plan.sources.get((a.sources[0] as SourceRef).id) as ResolvedSource;
    const lists: (readonly string[])[] = [];
    const dead: string[] = [];
    const range = s.doc.frontmatterKeys[formatSpec(s.file.format)?.globKey ?? ''];
    s.info.globs.forEach((glob, i) => {
      let m = cache.get(glob);
      if (!m) cache.set(glob, (m = match(glob)));
      const raw = s.info.rawGlobs[i] ?? glob;
      if (!m.ok) diagnostics.push(diag('RC3001', { file: s.file.id, range, message: `glob "${raw}" cannot be parsed: ${m.error}` }));
      else if (m.matches.length === 0) dead.push(raw);
      else {
        lists.push(m.matches);
        matched.set(glob, m.matches);
      }
    });
    const matches = unionSize(lists);
    // A rule that loads nowhere is worth a warning; one dead alternative among
    // live ones (`*.yml` and `*.yaml`, defensively) is only worth a note.
    if (dead.length > 0 && matches === 0 && dead.length === s.info.globs.length) {
      diagnostics.push(diag('RC3002', { file: s.file.id, range, message: `${dead.length === 1 ? `glob "${dead[0]}" matches` : `globs ${dead.map((g) => `"${g}"`).join(', ')} match`} no file in the repository; the rule never loads` }));
    } else if (dead.length > 0) {
      diagnostics.push(diag('RC3004', { file: s.file.id, range, message: `glob${dead.length === 1 ? '' : 's'} ${dead.map((g) => `"${g}"`).join(', ')} match${dead.length === 1 ? 'es' : ''} no file; the rule still loads through its other globs` }));
    }
    return { ...a, matches };
  });
  return { attachments, matched };
}

