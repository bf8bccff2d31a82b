/** Building blocks of the review page: figures, bars, the directory tree, conflicts, diagnostics. */
import type { ConflictEvent } from '../../conflicts/events.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { AffectedDirectory } from '../../diff/bundle-diff.js';
import { compareCodeUnits } from '../../util/compare.js';
import { num } from '../num.js';
import { html, type SafeHtml } from './html-escape.js';

export interface Figure {
  key: string;
  label: string;
  value: string;
}

export function figures(list: readonly Figure[]): SafeHtml {
  return html`<dl class="figures">${list.map((f) => html`<div class="figure"><dt>${f.label}</dt><dd data-key="${f.key}">${f.value}</dd></div>`)}</dl>`;
}

const WIDTH = 240;
const px = (v: number, max: number): string => (max <= 0 ? '0' : ((Math.min(v, max) / max) * WIDTH).toFixed(1));

/**
 * A before/after bar pair scaled to `max`; `budget` draws a limit line. A
 * missing side (null) draws no bar. Over the budget, the bar turns red.
 */
export function bars(label: string, old: number | null, now: number | null, max: number, budget: number | null = null): SafeHtml {
  const over = (v: number | null): boolean => budget !== null && v !== null && v > budget;
  const line = budget !== null && budget <= max ? html`<line class="budget" x1="${px(budget, max)}" x2="${px(budget, max)}" y1="0" y2="18"></line>` : null;
  const text = `${label}: ${old === null ? '' : `before ${num(old)}, `}${now === null ? 'removed' : `now ${num(now)}`}${budget !== null ? ` (budget ${num(budget)})` : ''}`;
  const oldBar = old !== null ? html`<rect class="${over(old) ? 'over' : 'old'}" x="0" y="1" width="${px(old, max)}" height="7"></rect>` : null;
  const newBar = now !== null ? html`<rect class="${over(now) ? 'over' : 'new'}" x="0" y="10" width="${px(now, max)}" height="7"></rect>` : null;
  return html`<svg class="bar" width="${WIDTH}" height="18" viewBox="0 0 ${WIDTH} 18" role="img" aria-label="${text}"><title>${text}</title><rect class="track" x="0" y="0" width="${WIDTH}" height="18"></rect>${oldBar}${newBar}${line}</svg>`;
}

/** What the bars mean: before/after for a diff, one value against the budget for a build. */
export function legend(kind: 'diff' | 'build'): SafeHtml {
  return kind === 'diff'
    ? html`<p class="legend"><span class="k-old">■ before</span><span class="k-new">■ after</span></p>`
    : html`<p class="legend"><span class="k-new">■ tokens</span><span class="k-over">■ over the budget</span><span class="k-budget">| budget</span></p>`;
}

interface TreeNode {
  name: string;
  path: string;
  own: AffectedDirectory | null;
  total: number;
  children: Map<string, TreeNode>;
}

function treeOf(dirs: readonly AffectedDirectory[]): TreeNode {
  const root: TreeNode = { name: '.', path: '.', own: null, total: 0, children: new Map() };
  for (const d of dirs) {
    let node = root;
    node.total += d.count;
    if (d.dir !== '.' && d.dir !== '') {
      const parts = d.dir.split('/');
      parts.forEach((name, i) => {
        let next = node.children.get(name);
        if (!next) node.children.set(name, (next = { name, path: parts.slice(0, i + 1).join('/'), own: null, total: 0, children: new Map() }));
        next.total += d.count;
        node = next;
      });
    }
    node.own = d;
  }
  return root;
}

function nodeHtml(n: TreeNode, unit: string): SafeHtml {
  const ex = n.own && n.own.examples.length > 0 ? html`<span class="ex">${n.own.examples.join(', ')}</span>` : null;
  const label = html`<code>${n.name}</code><span class="count">${num(n.total)} ${unit}</span>${ex}`;
  const kids = [...n.children.values()].sort((a, b) => compareCodeUnits(a.name, b.name));
  if (kids.length === 0) return html`<li data-path="${n.path}">${label}</li>`;
  return html`<li data-path="${n.path}"><details open><summary>${label}</summary><ul>${kids.map((k) => nodeHtml(k, unit))}</ul></details></li>`;
}

export function directoryTree(dirs: readonly AffectedDirectory[], unit: string, omitted: number): SafeHtml {
  if (dirs.length === 0) return html`<p>No ${unit} affected.</p>`;
  const more = omitted > 0 ? html`<p>…and ${num(omitted)} more directories (see the JSON report).</p>` : null;
  return html`<div class="toolbar"><input id="tree-filter" type="search" placeholder="filter directories" aria-label="filter directories"></div>
<div class="tree" id="tree"><ul>${nodeHtml(treeOf(dirs), unit)}</ul></div>${more}`;
}

function conflictHtml(e: ConflictEvent): SafeHtml {
  const sides = e.sides.map((s) => html`<tr><td>${s.source === e.adopted ? html`<span class="adopted">adopted</span>` : 'other'}</td>
<td><code>${s.source}:${s.line}:${s.col}</code></td><td>${s.layer} / <code>${s.scope}</code></td><td><code>${s.value}</code></td><td>${s.excerpt}</td></tr>`);
  const where = e.paths.examples.length > 0 ? html`: ${e.paths.examples.map((p) => html`<code>${p}</code> `)}` : null;
  return html`<div class="conflict" data-id="${e.id}"><h3><span class="sev-${e.severity}">${e.severity}</span> ${e.kind} on <code>${e.topic}</code> <span class="tag">${e.id}</span></h3>
<table><tr><th>side</th><th>where</th><th>layer / scope</th><th>value</th><th>text</th></tr>${sides}</table>
<p>${e.ruling}. <em>${e.reason}</em> (${num(e.paths.count)} paths${where})</p></div>`;
}

export function conflictsTable(events: readonly ConflictEvent[]): SafeHtml {
  if (events.length === 0) return html`<p>None.</p>`;
  return html`${events.map(conflictHtml)}`;
}

export function diagnosticsTable(list: readonly Diagnostic[]): SafeHtml {
  if (list.length === 0) return html`<p>No problems found.</p>`;
  const row = (d: Diagnostic): SafeHtml => {
    const where = d.file === '' ? '(no file)' : html`<code>${d.file}:${d.range.start.line}:${d.range.start.col}</code>`;
    const hint = d.hint ? html`<br><small>hint: ${d.hint}</small>` : null;
    const related = (d.related ?? []).map((r) => html`<br><small>related: <code>${r.file}:${r.range.start.line}</code> ${r.message}</small>`);
    return html`<tr><td class="sev-${d.severity}">${d.severity}</td><td>${d.code}</td><td>${where}</td><td>${d.message}${hint}${related}</td></tr>`;
  };
  return html`<table><tr><th>severity</th><th>code</th><th>where</th><th>message</th></tr>${list.map(row)}</table>`;
}
