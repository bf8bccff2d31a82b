/**
 * A CheckReport as text (pure): the verdict and why first, then the rule
 * files changed, the risk findings and approvals, head's diagnostics, and the
 * diff itself (format-text.ts).
 */
import { formatDiagnostics, summaryLine, type SourceLines } from '../report/text.js';
import { formatDiffText } from './format-text.js';
import type { CheckRef, CheckReport } from './types.js';

export function formatCheckText(r: CheckReport, lines: SourceLines = () => undefined): string {
  if (r.skipped) return `${skippedLine(r.base, r.head)}\n`;
  const out = [`rulec check: ${r.verdict === 'pass' ? 'PASS' : 'FAIL'}${r.reasons.length > 0 ? ` — ${r.reasons.length} reason${r.reasons.length === 1 ? '' : 's'}` : ''}`];
  out.push(...r.reasons.map((x) => `  ✗ ${x}`));
  out.push(`  base  ${ref(r.base)}`, `  head  ${ref(r.head)}`, `  rule files changed (${r.changed.length}): ${r.changed.join(', ')}`, '');
  if (r.risk) {
    out.push(`Risk: ${r.risk.level}`);
    for (const f of r.risk.findings) {
      const at = f.line === null ? f.source : `${f.source}:${f.line}`;
      out.push(`  ${f.level.padEnd(6)} ${f.check.padEnd(22)} ${at}  ${f.why}${f.excerpt ? `: ${f.excerpt}` : ''}`);
    }
    if (r.risk.requirements.length > 0) out.push('', 'Approvals');
    for (const q of r.risk.requirements) {
      const who = q.owners.length === 0 ? 'any reviewer' : q.owners.join(' or ');
      out.push(`  ${q.satisfied ? '✓' : '✗'} ${q.level}: ${q.needed} from ${who} for ${q.sources.join(', ')}; approved by ${q.approved_by.join(', ') || 'nobody who qualifies'}`);
    }
    out.push(`  (approvals read from ${r.approvals.from ?? 'nowhere: pass --approvals FILE or set RULEC_APPROVALS'})`, '');
  }
  if (r.diagnostics.length > 0) out.push(formatDiagnostics(r.diagnostics, lines), summaryLine(r.diagnostics), '');
  if (r.diff) out.push(formatDiffText(r.diff));
  return `${out.join('\n').trimEnd()}\n`;
}

/** The one line `rulec check` prints when no rule file changed. */
export function skippedLine(base: CheckRef, head: CheckRef): string {
  return `rulec check: no rule file changed between ${ref(base)} and ${ref(head)}; nothing to check.`;
}

function ref(r: CheckRef): string {
  return `${r.ref} (${r.commit.slice(0, 12)}; ${r.how})`;
}
