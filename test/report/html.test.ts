/**
 * The review page as bytes: self-contained (no URL it would fetch, no
 * external asset), a strict CSP whose hashes are those of the one inline
 * style sheet and script, the key figures in the markup, the directory tree
 * nested by path, and every string from a file escaped (the hostile cases are
 * in reporters.test.ts; the page is rendered in Chromium by browser.test.ts).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from '../../src/report/reporters/html-escape.js';
import { checkReportOf, diffReportOf } from '../../src/report/reporters/from-diff.js';
import { renderReport } from '../../src/report/reporters/index.js';
import type { Report } from '../../src/report/reporters/types.js';
import { HOSTILE, sampleCheck, sampleDiff } from './fixtures/diff.js';
import { TOOL, sampleBuild, sampleLint } from './fixtures/reports.js';

const b64 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64');
const page = (r: Report): string => renderReport(r, 'html');
const key = (out: string, k: string): string | undefined => new RegExp(`data-key="${k}">([^<]*)<`).exec(out)?.[1];

describe('escaping', () => {
  it('escapes every interpolation, text and attribute alike, and passes its own fragments through', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    const inner = html`<b>${HOSTILE.file}</b>`;
    expect(html`<p title="${HOSTILE.text}">${inner}${[1, 'x<y', null, undefined, false]}</p>`.value)
      .toBe(`<p title="${escapeHtml(HOSTILE.text)}"><b>${escapeHtml(HOSTILE.file)}</b>1x&lt;y</p>`);
  });
});

describe.each([['lint', sampleLint()], ['build', sampleBuild()], ['diff', diffReportOf(sampleDiff(), TOOL)],
  ['check', checkReportOf(sampleCheck(), { lines: {}, policy_file: null }, TOOL)]] as const)('%s page', (_name, report) => {
  const out = page(report);

  it('admits exactly its own style sheet and script by hash, and nothing from the network', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(out)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(out)?.[1] ?? '';
    const script = /<script>([\s\S]*?)<\/script>/.exec(out)?.[1] ?? '';
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${b64(style)}'; script-src 'sha256-${b64(script)}'; img-src 'none'; base-uri 'none'; form-action 'none'`);
    expect(out.match(/<script/g)).toHaveLength(1);
    expect(out.match(/<style/g)).toHaveLength(1);
    expect(out).not.toMatch(/\s(src|href|action|srcset|poster|data)=/i);
    expect(out).not.toMatch(/<(link|img|iframe|object|embed|base|form)\b/i);
    expect(out).not.toMatch(/url\(|@import/);
    expect(out).not.toMatch(/\sstyle=/);
  });

  it('opens with the verdict', () => {
    expect(out.startsWith('<!doctype html>\n<html lang="en" data-ready="no"')).toBe(true);
    expect(key(out, 'verdict')).toMatch(/^(Lint|Built|Build|Bundle|Check|Proposed)/);
  });
});

describe('diff page content', () => {
  const out = page(diffReportOf(sampleDiff(), TOOL));

  it('shows the key figures', () => {
    expect(key(out, 'affected')).toBe('1,234 of 4,000');
    expect(key(out, 'cache-share')).toBe('33.0%');
    expect(key(out, 'cache-tokens-kept')).toBe('2,344,600');
    expect(key(out, 'cache-tokens-invalidated')).toBe('4,750,800');
    expect(key(out, 'bump')).toBe('major');
    expect(key(out, 'tokens-delta')).toBe('+61,700');
    expect(key(out, 'conflicts-introduced')).toBe('1');
  });

  it('nests the directory tree by path, with counts summed up the tree', () => {
    const api = out.indexOf('data-path="packages/api"');
    const src = out.indexOf('data-path="packages/api/src"');
    expect(api).toBeGreaterThan(0);
    expect(src).toBeGreaterThan(api);
    expect(out.slice(api, src)).toContain('<details open>');
    expect(out).toMatch(/data-path="packages"><details open><summary><code>packages<\/code><span class="count">234 paths<\/span>/);
    expect(out).toMatch(/data-path="\."><details open><summary><code>\.<\/code><span class="count">1,234 paths<\/span>/);
  });

  it('draws budget bars per variant group and agent, and marks an agent that now cuts', () => {
    expect(out).toContain('aria-label="codex: before 8,100, now 8,120"');
    expect(out).toContain('<span class="tag sev-error">cut</span>');
    expect(out).toContain('aria-label="standing context tokens: before 5,200, now 5,250"');
  });

  it('shows both sides of each conflict, and which was adopted', () => {
    const conflict = out.slice(out.indexOf('<div class="conflict" data-id="c-1a2b3c4d5e6f7081">'));
    expect(conflict).toContain('<code>AGENTS.md:7:1</code>');
    expect(conflict).toContain('<code>packages/web/AGENTS.md:3:1</code>');
    expect(out).toContain('<span class="adopted">adopted</span></td>\n<td><code>packages/api/AGENTS.md:4:1</code>');
  });
});

describe('build page content', () => {
  it('bars each variant against the policy budget and marks what an agent cuts', () => {
    const out = page(sampleBuild());
    expect(out).toContain('aria-label="standing context tokens: now 8,150 (budget 8,000)"');
    expect(out).toMatch(/<rect class="over" x="0" y="10"/);
    expect(out).toContain('cut: packages/api/AGENTS.md');
    expect(out).toContain('…and 1 more variants.');
  });
});
