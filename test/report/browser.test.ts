/**
 * The review page in a real browser: Debian's Chromium, headless, with a
 * fresh profile and no background networking (the machine has no network),
 * started once for the file and driven over the DevTools protocol
 * (headless.ts). The DOM is read after the page's load event, as
 * `--dump-dom` prints it, so after the page's script ran: the script marks the
 * page ready and records that the style sheet applied, which only happens
 * when the CSP hashes admit both. The test then checks the key figures, the
 * tree filter (driven by the page's `#filter=` link), that hostile names
 * produced no element, and saves screenshots to test-artifacts/.
 *
 * Skips, saying why, only when no Chromium can be found (.ci/run installs
 * Debian's `chromium` when it is missing).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportOf, diffReportOf } from '../../src/report/reporters/from-diff.js';
import { renderReport } from '../../src/report/reporters/index.js';
import { hostileDiff, sampleCheck, sampleDiff } from './fixtures/diff.js';
import { TOOL, sampleBuild } from './fixtures/reports.js';
import { startHeadless, type Headless } from './headless.js';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const CHROMIUM = CANDIDATES.find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p));
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');
const work = mkdtempSync(join(tmpdir(), 'rulec-browser-'));

if (!CHROMIUM) console.warn(`browser.test.ts skipped: no Chromium at ${CANDIDATES.filter(Boolean).join(', ')} (apt-get install chromium, or set CHROMIUM_PATH)`);

function pageFile(name: string, text: string): string {
  const file = join(work, name);
  writeFileSync(file, text);
  return pathToFileURL(file).href;
}

const dataKey = (dom: string, key: string): string | undefined => new RegExp(`data-key="${key}">([^<]*)<`).exec(dom)?.[1];

describe.skipIf(!CHROMIUM)('review page in headless Chromium', () => {
  // One browser for the file (headless.ts), a fresh tab per page.
  let browser: Headless;
  beforeAll(() => { browser = startHeadless(CHROMIUM as string, work); });
  afterAll(async () => {
    await browser?.close();
    rmSync(work, { recursive: true, force: true });
  });
  const diffPage = pageFile('review.html', renderReport(diffReportOf(sampleDiff(), TOOL), 'html'));

  it('runs its script under the CSP, applies its style sheet and shows the key numbers', async () => {
    const dom = await browser.dom(diffPage);
    expect(dom).toMatch(/<html lang="en" data-ready="yes" data-styled="yes">/);
    expect(dataKey(dom, 'verdict')).toBe('Proposed bump: major; 1,234 of 4,000 paths change');
    expect(dataKey(dom, 'affected')).toBe('1,234 of 4,000');
    expect(dataKey(dom, 'cache-share')).toBe('33.0%');
    expect(dataKey(dom, 'cache-tokens-invalidated')).toBe('4,750,800');
    expect(dom).toContain('<code>packages/web/AGENTS.md:3:1</code>');
    expect(dom).toMatch(/<svg class="bar"[^>]*aria-label="codex: before 8,100, now 8,120"/);
  });

  it('filters the directory tree from the page link', async () => {
    const dom = await browser.dom(`${diffPage}#filter=packages%2Fapi%2Fsrc`);
    const li = (path: string): string => new RegExp(`<li data-path="${path.replace(/\./g, '\\.')}"( hidden="")?>`).exec(dom)?.[0] ?? 'missing';
    expect(li('packages/api/src')).toBe('<li data-path="packages/api/src">');
    expect(li('packages/api')).toBe('<li data-path="packages/api">');
    expect(li('.')).toBe('<li data-path=".">');
    expect(li('docs')).toBe('<li data-path="docs" hidden="">');
    expect(li('scripts')).toBe('<li data-path="scripts" hidden="">');
  });

  it('turns hostile names and text into text, never into elements', async () => {
    const dom = await browser.dom(pageFile('hostile.html', renderReport(diffReportOf(hostileDiff(), TOOL), 'html')));
    expect(dom).toMatch(/data-ready="yes" data-styled="yes"/);
    expect(dom.match(/<script/g)).toHaveLength(1);
    expect(dom).not.toMatch(/<img/);
    expect(dom).toContain('&lt;script&gt;alert(1)&lt;/script&gt;"&gt;&lt;img src=x onerror=alert(2)&gt;');
  });

  it('saves screenshots of the diff, check and build pages as test artifacts', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const pages: [string, string][] = [
      ['review.png', diffPage],
      ['review-check.png', pageFile('check.html', renderReport(checkReportOf(sampleCheck(), { lines: {}, policy_file: null }, TOOL), 'html'))],
      ['review-build.png', pageFile('build.html', renderReport(sampleBuild(), 'html'))],
    ];
    for (const [name, url] of pages) {
      const png = join(ARTIFACTS, name);
      rmSync(png, { force: true });
      writeFileSync(png, await browser.screenshot(url, 1280, 2200));
      expect(statSync(png).size).toBeGreaterThan(20_000);
    }
  });
});
