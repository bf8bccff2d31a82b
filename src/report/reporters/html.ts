/**
 * The HTML reporter: one self-contained review page. No network, no external
 * asset: the style sheet and script are inline and admitted by hash in a
 * strict Content Security Policy (html-assets.ts). Every string that came from
 * a file goes through the `html` template, which escapes it.
 *
 * Diff and check pages show the per-directory tree of affected paths, token
 * budget bars per variant and agent, the prompt-cache figure and the
 * conflicts with both sides (html-diff.ts); build and lint pages show the
 * variants with their budget bars, the conflicts and the diagnostics.
 */
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { num } from '../num.js';
import { PAGE_CSP, PAGE_CSS, PAGE_JS } from './html-assets.js';
import { checkBody, diffBody } from './html-diff.js';
import { html, trustedConstant, type SafeHtml } from './html-escape.js';
import { bars, conflictsTable, diagnosticsTable, figures, legend } from './html-parts.js';
import { verdictOf } from './facts.js';
import type { BuildReport, LintReport, Report, Reporter } from './types.js';

function page(report: Report, sub: SafeHtml, body: SafeHtml): string {
  const v = verdictOf(report);
  return `<!doctype html>\n${html`<html lang="en" data-ready="no" data-styled="unknown">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${trustedConstant(PAGE_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rulec ${report.command}: ${v.title}</title>
<style>${trustedConstant(PAGE_CSS)}</style>
</head>
<body>
<header><h1 class="verdict ${v.tone}" data-key="verdict">${v.title}</h1><p class="sub">${sub}</p>
<div class="toolbar"><button type="button" data-open="yes">open all</button><button type="button" data-open="no">close all</button></div></header>
<main>
${body}
</main>
<footer>rulec ${report.tool.version} · ${report.command} report · self-contained: this page loads nothing from the network.</footer>
<script>${trustedConstant(PAGE_JS)}</script>
</body>
</html>`.value}\n`;
}

function lintBody(r: LintReport): SafeHtml {
  const c = countBySeverity(r.diagnostics);
  return html`${figures([
    { key: 'errors', label: 'errors', value: num(c.error) },
    { key: 'warnings', label: 'warnings', value: num(c.warning) },
    { key: 'infos', label: 'infos', value: num(c.info) },
    { key: 'conflicts', label: 'conflicts', value: num(r.conflicts.length) },
  ])}
<section id="diagnostics"><h2>Diagnostics</h2>${diagnosticsTable(r.diagnostics)}</section>
<section id="conflicts"><h2>Conflicts (${num(r.conflicts.length)})</h2>${conflictsTable(r.conflicts)}</section>`;
}

function variantsSection(r: BuildReport): SafeHtml {
  let max = r.variant_budget;
  for (const v of r.variants) for (const t of [v.tokens, ...v.profiles.map((p) => p.tokens)]) max = Math.max(max, t);
  const rows = r.variants.map((v) => {
    const agents = v.profiles.map((p) => html`<div><code>${p.profile}</code> ${bars(p.profile, null, p.tokens, max)} ${num(p.tokens)}${p.fits ? null : html` <span class="tag sev-error">cut: ${p.dropped.join(', ')}</span>`}</div>`);
    const dirs = html`${v.dirs.map((d) => html`<code>${d}</code> `)}${v.dirs_omitted > 0 ? `+${num(v.dirs_omitted)}` : ''}`;
    return html`<tr><td><code class="id">${v.id}</code><br><small>${dirs}</small></td><td class="num">${num(v.paths)}</td>
<td>${bars('standing context tokens', null, v.tokens, max, r.variant_budget)} ${num(v.tokens)}</td><td>${agents}</td></tr>`;
  });
  const more = r.variants_omitted > 0 ? html`<p>…and ${num(r.variants_omitted)} more variants.</p>` : null;
  return html`<section id="tokens"><h2>Token budgets per variant and agent (budget ${num(r.variant_budget)} tokens)</h2>${legend('build')}
<table><tr><th>variant</th><th>paths</th><th>standing context</th><th>per agent</th></tr>${rows}</table>${more}</section>`;
}

function buildBody(r: BuildReport): SafeHtml {
  const s = r.summary;
  const c = countBySeverity(r.diagnostics);
  return html`${figures([
    { key: 'paths', label: 'paths', value: num(s.paths) },
    { key: 'sources', label: 'sources', value: num(s.sources) },
    { key: 'variants', label: 'variants', value: num(s.variants) },
    { key: 'tokens', label: `unique tokens (${r.tokenizer})`, value: num(s.tokens) },
    { key: 'errors', label: 'errors', value: num(c.error) },
    { key: 'conflicts', label: 'conflicts', value: num(r.conflicts.length) },
  ])}
${variantsSection(r)}
<section id="conflicts"><h2>Conflicts (${num(r.conflicts.length)})</h2>${conflictsTable(r.conflicts)}</section>
<section id="diagnostics"><h2>Diagnostics</h2>${diagnosticsTable(r.diagnostics)}</section>`;
}

function subtitle(report: Report): SafeHtml {
  switch (report.command) {
    case 'lint': return html`<code>${report.repo}</code>`;
    case 'build': return html`<code>${report.repo}</code> · bundle <code>${report.bundle_id}</code> <code>${report.digest}</code>`;
    case 'diff': return html`<code>${report.diff.old.label}</code> → <code>${report.diff.new.label}</code>`;
    case 'check': return html`<code>${report.check.base.ref}</code> (${report.check.base.commit.slice(0, 12)}) → <code>${report.check.head.ref}</code> (${report.check.head.commit.slice(0, 12)})`;
  }
}

export const htmlReporter: Reporter = {
  format: 'html',
  description: 'for reviewers: a self-contained page (tree, budget bars, prompt cache, conflicts)',
  render(report: Report): string {
    switch (report.command) {
      case 'lint': return page(report, subtitle(report), lintBody(report));
      case 'build': return page(report, subtitle(report), buildBody(report));
      case 'diff': return page(report, subtitle(report), diffBody(report.diff));
      case 'check': return page(report, subtitle(report), checkBody(report.check));
    }
  },
};
