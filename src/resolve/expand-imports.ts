/**
 * Import expansion. For a top-level source, the files its `@` imports pull in,
 * depth-first in document order, each right after the file that imports it
 * (Claude Code's order). A chain is cut at a cycle or past `maxDepth` hops;
 * each problem is reported once, at the import site.
 */
import type { ParsedDoc, SourceRef } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { importCandidates, importTarget, looksLikePath, type ImportRoots } from '../parse/import-target.js';
import { expandsImports } from '../discover/formats.js';

export interface ImportContext {
  docs: ReadonlyMap<string, ParsedDoc>;
  roots: ImportRoots;
  maxDepth: number;
}

export interface Expansion {
  refs: SourceRef[];
  diagnostics: Diagnostic[];
}

export function expandImports(rootId: string, ctx: ImportContext): Expansion {
  const refs: SourceRef[] = [];
  const diagnostics: Diagnostic[] = [];
  if (!expandsImports(rootId)) return { refs, diagnostics };
  const seen = new Set<string>([rootId]);
  const walk = (id: string, chain: string[]): void => {
    const doc = ctx.docs.get(id);
    if (!doc) return;
    for (const imp of doc.imports) {
      const target = locate(id, imp.target, ctx);
      if (target.kind !== 'file') {
        if (target.kind === 'outside' && looksLikePath(imp.target)) {
          diagnostics.push(diag(target.home ? 'RC2105' : 'RC2104', { file: id, range: imp.span, message: `import @${imp.target} ${target.why}; not loaded` }));
        } else if (target.kind === 'missing' && looksLikePath(imp.target)) {
          diagnostics.push(diag('RC2101', { file: id, range: imp.span, message: `import @${imp.target} not found` }));
        }
        continue;
      }
      if (chain.includes(target.id)) {
        diagnostics.push(diag('RC2102', { file: id, range: imp.span, message: `import @${imp.target} closes a cycle: ${[...chain, target.id].join(' → ')}` }));
        continue;
      }
      if (chain.length > ctx.maxDepth) {
        diagnostics.push(diag('RC2103', { file: id, range: imp.span, message: `import @${imp.target} is ${chain.length} hops from ${rootId}, past the limit of ${ctx.maxDepth}; not loaded` }));
        continue;
      }
      if (seen.has(target.id)) continue;
      seen.add(target.id);
      refs.push({ id: target.id, reason: `imported by ${id}`, importedBy: id });
      walk(target.id, [...chain, target.id]);
    }
  };
  walk(rootId, [rootId]);
  return { refs, diagnostics };
}

type Located = { kind: 'file'; id: string } | { kind: 'outside'; why: string; home: boolean } | { kind: 'missing' };

function locate(fromId: string, target: string, ctx: ImportContext): Located {
  let outside: Located | null = null;
  for (const candidate of importCandidates(target)) {
    const t = importTarget(fromId, candidate, ctx.roots);
    if (t.kind === 'file') {
      if (ctx.docs.has(t.id)) return t;
    } else outside ??= { kind: 'outside', why: t.why, home: candidate.startsWith('~/') };
  }
  return outside ?? { kind: 'missing' };
}
