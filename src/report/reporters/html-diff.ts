/** The review page's sections for `rulec diff` and `rulec check`. */
import type { BundleDiff } from '../../diff/bundle-diff.js';
import type { CheckReport } from '../../diff/check-model.js';
import type { PathGroup, TopicWinner } from '../../diff/path-group.js';
import type { RuleChange } from '../../diff/rule-change.js';
import { num } from '../num.js';
import { cacheShare } from './diff-facts.js';
import { percent, signed } from './facts.js';
import { html, type SafeHtml } from './html-escape.js';
import { bars, conflictsTable, diagnosticsTable, directoryTree, figures, legend } from './html-parts.js';

const MAX_GROUPS = 30;

export function diffFigures(d: BundleDiff): SafeHtml {
  const s = d.summary;
  return figures([
    { key: 'bump', label: 'proposed bump', value: d.semver.bump },
    { key: 'affected', label: `affected ${s.unit}`, value: `${num(s.affected)} of ${num(s.total)}` },
    { key: 'cache-kept', label: 'prompt-cache prefix kept', value: cacheShare(d) },
    { key: 'tokens-delta', label: 'tokens (affected)', value: signed(d.tokens.new_total - d.tokens.old_total) },
    { key: 'conflicts-introduced', label: 'conflicts introduced', value: num(s.conflicts.introduced) },
    { key: 'winners-changed', label: 'topic winners changed', value: num(s.winners_changed) },
  ]);
}

function cacheSection(d: BundleDiff): SafeHtml {
  const c = d.cache;
  const total = c.tokens_kept + c.tokens_invalidated;
  return html`<section id="cache"><h2>Prompt cache</h2>
<p><span class="cache-big" data-key="cache-share">${cacheShare(d)}</span> of the cached prefix tokens of changed ${c.unit} still hit after this change:
<span data-key="cache-tokens-kept">${num(c.tokens_kept)}</span> tokens kept, <span data-key="cache-tokens-invalidated">${num(c.tokens_invalidated)}</span> invalidated.</p>
${bars('prefix tokens kept of all cached', total, c.tokens_kept, Math.max(total, 1))}
<p class="legend"><span class="k-old">■ cached prefix tokens before the change</span><span class="k-new">■ still served after it</span></p>
<p><span data-key="cache-prefix-lost">${num(c.prefix_lost)}</span> ${c.unit} lose their cached prefix, ${num(c.prefix_kept)} only append after it, ${num(c.unchanged)} are unchanged.</p></section>`;
}

function groupRow(g: PathGroup, max: number): SafeHtml {
  const where = html`${g.dirs.examples.map((x) => html`<code>${x}</code> `)}${g.dirs.count > g.dirs.examples.length ? `+${num(g.dirs.count - g.dirs.examples.length)}` : ''}`;
  const agents = g.profiles.map((p) => {
    const cut = p.new && !p.new.fits ? html` <span class="tag sev-error">cut</span>` : null;
    return html`<div><code>${p.profile}</code> ${bars(p.profile, p.old?.tokens ?? null, p.new?.tokens ?? null, max)}${cut}</div>`;
  });
  const cache = g.cache.whole_prefix ? 'prefix kept' : html`${num(g.cache.kept_tokens)} of ${num(g.cache.old_tokens)} kept${g.cache.first_change ? html`; first change in <code>${g.cache.first_change}</code>` : null}`;
  return html`<tr><td>${where}<br><small>${g.old_variant} → ${g.new_variant}</small></td><td class="num">${num(g.paths?.count ?? g.dirs.count)}</td>
<td>${bars('standing context tokens', g.tokens.old, g.tokens.new, max)}<br><small>${num(g.tokens.old)} → ${num(g.tokens.new)} (${signed(g.tokens.new - g.tokens.old)})</small></td>
<td>${agents}</td><td>${cache}</td></tr>`;
}

function tokensSection(d: BundleDiff): SafeHtml {
  const groups = d.groups.slice(0, MAX_GROUPS);
  let max = 1;
  for (const g of groups) for (const v of [g.tokens.old, g.tokens.new, ...g.profiles.flatMap((p) => [p.old?.tokens ?? 0, p.new?.tokens ?? 0])]) max = Math.max(max, v);
  let pmax = 1;
  for (const p of d.tokens.profiles) pmax = Math.max(pmax, p.old_tokens, p.new_tokens);
  const agents = d.tokens.profiles.map((p) => html`<tr><td><code>${p.profile}</code></td><td>${bars(p.profile, p.old_tokens, p.new_tokens, pmax)}</td>
<td class="num">${num(p.old_tokens)} → ${num(p.new_tokens)}</td><td class="num">${num(p.old_fits)} → ${num(p.new_fits)}</td></tr>`);
  const more = d.groups.length > groups.length ? html`<p>…and ${num(d.groups.length - groups.length)} more groups.</p>` : null;
  return html`<section id="tokens"><h2>Token budgets per variant and agent</h2>${legend('diff')}
<table><tr><th>agent</th><th>tokens over affected ${d.tokens.unit}</th><th>before → after</th><th>${d.tokens.unit} within budget</th></tr>${agents}</table>
<table><tr><th>variant group</th><th>${d.summary.unit}</th><th>standing context</th><th>per agent</th><th>prompt cache</th></tr>${groups.map((g) => groupRow(g, max))}</table>${more}</section>`;
}

const winner = (w: TopicWinner | null): SafeHtml => (w ? html`<code>${w.value}</code>${w.decided ? null : ' (undecided)'}<br><small>${w.source}:${w.line}</small>` : html`—`);

function ruleHtml(r: RuleChange): SafeHtml {
  const site = r.new ?? r.old;
  const lines = [...r.removed_lines.map((l) => `- ${l}`), ...r.added_lines.map((l) => `+ ${l}`)];
  return html`<details><summary>${r.kind} <code>${r.rule}</code>${site ? html` <small>${site.source}:${site.line}</small>` : null}${r.effects.map((e) => html` <span class="tag">${e}</span>`)}</summary>
${lines.length > 0 ? html`<pre>${lines.join('\n')}</pre>` : null}</details>`;
}

export function diffBody(d: BundleDiff): SafeHtml {
  if (d.identical) return html`<p>Both sides are <code>${d.new.bundle_id}</code>: nothing an agent loads changed.</p>`;
  const winners = d.winners.map((w) => html`<tr><td><code>${w.topic}</code></td><td>${winner(w.old)}</td><td>${winner(w.new)}</td><td class="num">${num(w.units.count)}</td></tr>`);
  return html`${diffFigures(d)}
${cacheSection(d)}
${tokensSection(d)}
<section id="tree-section"><h2>Affected ${d.affected.unit} by directory (${num(d.affected.count)} of ${num(d.affected.total)}, ${percent(d.affected.count, d.affected.total)})</h2>${directoryTree(d.affected.directories, d.affected.unit, d.affected.omitted)}</section>
<section id="winners"><h2>Topic winners</h2>${d.winners.length === 0 ? html`<p>None changed.</p>` : html`<table><tr><th>topic</th><th>before</th><th>after</th><th>${d.summary.unit}</th></tr>${winners}</table>`}</section>
<section id="conflicts"><h2>Conflicts introduced (${num(d.conflicts.introduced.length)})</h2>${conflictsTable(d.conflicts.introduced)}
<h2>Conflicts resolved (${num(d.conflicts.resolved.length)})</h2>${conflictsTable(d.conflicts.resolved)}</section>
<section id="rules"><h2>Rules changed (${num(d.rules.length)})</h2>${d.rules.map(ruleHtml)}</section>
<section id="semver"><h2>Why ${d.semver.bump}</h2><ul>${d.semver.reasons.map((r) => html`<li><span class="tag">${r.bump}</span> ${r.why}</li>`)}</ul></section>
${d.notes.length > 0 ? html`<section id="notes"><h2>Notes</h2><ul>${d.notes.map((n) => html`<li>${n}</li>`)}</ul></section>` : null}`;
}

export function checkBody(c: CheckReport): SafeHtml {
  if (c.skipped) return html`<p>No rule file changed between the two commits: nothing was compiled.</p>`;
  const reasons = c.reasons.length > 0 ? html`<section id="reasons"><h2>Fails because</h2><ul>${c.reasons.map((r) => html`<li>${r}</li>`)}</ul></section>` : null;
  const risk = c.risk ? html`<section id="risk"><h2>Risk: <span data-key="risk-level">${c.risk.level}</span></h2>
<table><tr><th>level</th><th>check</th><th>where</th><th>why</th><th>owners</th></tr>${c.risk.findings.map((f) => html`<tr><td>${f.level}</td><td><code>${f.check}</code></td>
<td>${f.source ? html`<code>${f.source}${f.line !== null ? `:${f.line}` : ''}</code>` : 'policy'}</td><td>${f.why}${f.excerpt ? html`<br><code>${f.excerpt}</code>` : null}</td><td>${f.owners.join(', ')}</td></tr>`)}</table>
<h2>Approvals</h2><table><tr><th></th><th>level</th><th>any of</th><th>needed</th><th>approved by</th></tr>${c.risk.requirements.map((q) => html`<tr><td>${q.satisfied ? '✓' : '✗ missing'}</td><td>${q.level}</td>
<td>${q.owners.join(', ') || 'any reviewer'}</td><td class="num">${q.needed}</td><td>${q.approved_by.join(', ') || '—'}</td></tr>`)}</table></section>` : null;
  return html`${reasons}${risk}
<section id="diagnostics"><h2>Diagnostics</h2>${diagnosticsTable(c.diagnostics)}</section>
${c.diff ? diffBody(c.diff) : null}
<section id="changed"><h2>Changed rule files (${num(c.changed.length)})</h2><ul>${c.changed.map((p) => html`<li><code>${p}</code></li>`)}</ul></section>`;
}
