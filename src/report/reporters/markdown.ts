/**
 * The Markdown reporter: a pull-request comment. It opens with a hidden
 * marker (so a workflow updates its one comment instead of adding another),
 * the verdict and a summary table; everything else is folded in `<details>`,
 * and the whole stays under GitHub's comment limit (markdown-util.ts).
 */
import { num } from '../num.js';
import { countsLine, verdictOf } from './facts.js';
import { checkMarkdown, diffMarkdown } from './markdown-diff.js';
import { conflictsSection, diagnosticsSection, headline } from './markdown-parts.js';
import { details, fitSections, mdCode, mdTable, mdText, type Section } from './markdown-util.js';
import type { BuildReport, LintReport, Report, Reporter } from './types.js';

const FULL = 'Run the command with `--format html` (or `--format json`) for the full report.';

function lintMarkdown(r: LintReport): string {
  const head = `${headline(verdictOf(r))}\n\n${mdTable(['', ''], [['repository', mdCode(r.repo, true)], ['diagnostics', countsLine(r.diagnostics)], ['conflicts', String(r.conflicts.length)]])}`;
  return fitSections(head, [diagnosticsSection(r.diagnostics), conflictsSection('Conflicts', r.conflicts)], FULL);
}

function buildMarkdown(r: BuildReport): string {
  const s = r.summary;
  const rows: string[][] = [
    ['bundle', `${mdCode(r.bundle_id, true)}${r.written ? ' (written)' : r.check ? (r.check.stale ? ' (**stale**)' : ' (up to date)') : ' (not written)'}`],
    ['paths', num(s.paths)],
    ['sources', `${num(s.sources)} (${Object.entries(s.layers).map(([l, n]) => `${n} ${l}`).join(', ') || 'none'})`],
    ['variants', `${num(s.variants)}${s.largest ? `, largest ${num(s.largest.tokens)} tokens (${num(s.largest.paths)} paths)` : ''}`],
    ["tokens", `${num(s.tokens)} unique (${mdCode(r.tokenizer, true)})`],
    ['diagnostics', countsLine(r.diagnostics)],
    ['conflicts', String(r.conflicts.length)],
  ];
  const variants: Section = {
    title: 'Variants',
    items: r.variants.map((v) => `| ${mdCode(v.id, true)} | ${num(v.paths)} | ${num(v.tokens)}${v.tokens > r.variant_budget ? ' **over budget**' : ''} | ${v.profiles.map((p) => `${mdText(p.profile)} ${num(p.tokens)}${p.fits ? '' : ' **cut**'}`).join(', ')} |`),
    render: (shown, omitted) => details(`Variants (${r.summary.variants}; budget ${num(r.variant_budget)} tokens)`,
      `${mdTable(['variant', 'paths', 'tokens', 'per agent'], [])}\n${shown.join('\n')}${omitted + r.variants_omitted > 0 ? `\n\n…and ${omitted + r.variants_omitted} more.` : ''}`),
  };
  const head = `${headline(verdictOf(r))}\n\n${mdTable(['', ''], rows)}`;
  return fitSections(head, [diagnosticsSection(r.diagnostics), conflictsSection('Conflicts', r.conflicts), variants], FULL);
}

export const markdownReporter: Reporter = {
  format: 'markdown',
  description: 'for a pull-request comment: verdict and summary first, details folded',
  render(report: Report): string {
    switch (report.command) {
      case 'lint': return lintMarkdown(report);
      case 'build': return buildMarkdown(report);
      case 'diff': return diffMarkdown(report.diff, FULL);
      case 'check': return checkMarkdown(report.check, FULL);
    }
  },
};
