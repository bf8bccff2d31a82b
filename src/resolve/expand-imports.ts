/**
 * Import expansion. For a top-level source, the files its `@` imports pull in,
 * depth-first in document order, each right after the file that imports it
 * (Claude Code's order). A chain is cut at a cycle or past `maxDepth` hops;
 * each problem is reported once, at the import site.
 *
 * The walk keeps an explicit stack (no recursion) and tests cycles against a
 * set of the ids on the current chain, so its cost is linear in the imports
 * it visits, whatever their number or depth.
 */
import type { ParsedDoc, SourceRef, StageResult } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { FormatName } from '../types.js';
import { importCandidates, importTarget, looksLikePath, type ImportRoots, type SourcePlace } from '../parse/import-target.js';
import { expandsImports } from '../formats/formats.js';

export interface ImportContext {
  docs: ReadonlyMap<string, ParsedDoc>;
  /** Where each source lives (root and path), by id: ids are never parsed. */
  places: ReadonlyMap<string, SourcePlace & { format: FormatName }>;
  roots: ImportRoots;
  maxDepth: number;
  /** True when discovery stopped following imports at its file cap (RC2106): unread targets are not "missing". */
  capped?: boolean;
  /** Targets discovery refused to read (reported at the import already): not "missing" either. */
  refused?: ReadonlySet<string>;
}

interface Frame {
  id: string;
  doc: ParsedDoc;
  next: number;
}

export function expandImports(rootId: string, ctx: ImportContext): StageResult<SourceRef[]> {
  const refs: SourceRef[] = [];
  const diagnostics: Diagnostic[] = [];
  const place = ctx.places.get(rootId);
  if (place && !expandsImports(place.format)) return { value: refs, diagnostics };
  const seen = new Set<string>([rootId]);
  const rootDoc = ctx.docs.get(rootId);
  if (!rootDoc) return { value: refs, diagnostics };
  const stack: Frame[] = [{ id: rootId, doc: rootDoc, next: 0 }];
  const onChain = new Set<string>([rootId]);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    const imp = top.doc.imports[top.next++];
    if (!imp) {
      onChain.delete(top.id);
      stack.pop();
      continue;
    }
    const target = locate(top.id, imp.target, ctx);
    if (target.kind !== 'file') {
      const d = problemOf(top.id, imp, target, ctx);
      if (d) diagnostics.push(d);
      continue;
    }
    if (onChain.has(target.id)) {
      const chain = [...stack.map((f) => f.id), target.id].join(' → ');
      diagnostics.push(diag('RC2102', { file: top.id, range: imp.span, message: `import @${imp.target} closes a cycle: ${chain}` }));
      continue;
    }
    if (stack.length > ctx.maxDepth) {
      diagnostics.push(diag('RC2103', { file: top.id, range: imp.span, message: `import @${imp.target} is ${stack.length} hops from ${rootId}, past the limit of ${ctx.maxDepth}; not loaded` }));
      continue;
    }
    if (seen.has(target.id)) continue;
    seen.add(target.id);
    refs.push({ id: target.id, reason: `imported by ${top.id}`, importedBy: top.id });
    onChain.add(target.id);
    stack.push({ id: target.id, doc: target.doc, next: 0 });
  }
  return { value: refs, diagnostics };
}

type Located =
  | { kind: 'file'; id: string; doc: ParsedDoc }
  | { kind: 'outside'; why: string; home: boolean }
  | { kind: 'invalid'; why: string }
  | { kind: 'refused' }
  | { kind: 'missing' };

function problemOf(fromId: string, imp: ParsedDoc['imports'][number], target: Exclude<Located, { kind: 'file' }>, ctx: ImportContext): Diagnostic | null {
  if (target.kind === 'invalid') return diag('RC2107', { file: fromId, range: imp.span, message: `import @${shorten(imp.target)} ${target.why}; not loaded` });
  if (target.kind === 'refused' || !looksLikePath(imp.target)) return null;
  if (target.kind === 'outside') return diag(target.home ? 'RC2105' : 'RC2104', { file: fromId, range: imp.span, message: `import @${imp.target} ${target.why}; not loaded` });
  // Past the file cap nothing was read: RC2106 already says so, once.
  return ctx.capped ? null : diag('RC2101', { file: fromId, range: imp.span, message: `import @${imp.target} not found` });
}

function locate(fromId: string, target: string, ctx: ImportContext): Located {
  const from = ctx.places.get(fromId);
  if (!from) return { kind: 'missing' };
  let problem: Located | null = null;
  for (const candidate of importCandidates(target)) {
    const t = importTarget(from, candidate, ctx.roots);
    if (t.kind === 'file') {
      const doc = ctx.docs.get(t.id);
      if (doc) return { kind: 'file', id: t.id, doc };
      if (ctx.refused?.has(t.id)) problem ??= { kind: 'refused' };
    } else if (t.kind === 'invalid') return t;
    else problem ??= { kind: 'outside', why: t.why, home: candidate.startsWith('~/') };
  }
  return problem ?? { kind: 'missing' };
}

/** A token quoted in a message: at most 80 characters of it. */
function shorten(token: string): string {
  return token.length <= 80 ? token : `${token.slice(0, 60)}…(${token.length} characters)`;
}
