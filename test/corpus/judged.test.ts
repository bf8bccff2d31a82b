/**
 * rulec on the instruction files of 25 public repositories (../shared/real-world-corpus,
 * rebuilt as skeleton repos with every tracked path; skipped when absent). Each build:
 * 1. finishes without a crash; every instruction file the corpus lists is in the bundle,
 *    and the bundle verifies;
 * 2. reports only judged findings (test/corpus/reviews/<entry>.json `verdicts`): a new
 *    finding fails until someone reads the cited lines and records a verdict;
 * 3. never reports a finding judged false, and errors only where judged true;
 * 4. still reports every finding judged true (recall does not silently drop).
 * `npm run corpus:score` prints precision per class and recall against the reviewed
 * `expected` items (issue #10).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { openBundle } from '../../src/bundle/open-bundle.js';
import { writeBundle } from '../../src/emit/write-bundle.js';
import { CORPUS, corpusEntries, corpusRepo } from '../helpers/corpus.js';
import { classOf, findingsOf, reviewOf, type Finding, type Review } from './judged.js';

const entries = corpusEntries();
const scratch = mkdtempSync(join(tmpdir(), 'rulec-judged-'));
const scored: { entry: string; review: Review; found: Map<string, Finding> }[] = [];

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  if (process.env.RULEC_CORPUS_SCORE === '1' && scored.length > 0) console.log(scoreTable(scored));
});

describe.skipIf(entries.length === 0)('judged real-world corpus', () => {
  it.each(entries)('%s', async (entry) => {
    const out = join(scratch, entry);
    const result = await compile({ repoDir: corpusRepo(entry), outDir: out });
    const review = reviewOf(entry);
    const found = findingsOf(result.diagnostics);
    scored.push({ entry, review, found });
    const verdicts = new Map((review.verdicts ?? []).map((v) => [v.finding, v]));

    const unjudged = [...found.values()].filter((f) => !verdicts.has(f.key)).map((f) => `${f.key} — ${f.severity}: ${f.message}`);
    expect(unjudged, 'findings nobody has judged: read the cited lines and add a verdict').toEqual([]);
    const judgedFalse = [...found.values()].filter((f) => verdicts.get(f.key)?.verdict === 'false').map((f) => f.key);
    expect(judgedFalse, 'findings judged false are reported again').toEqual([]);
    const errors = [...found.values()].filter((f) => f.severity === 'error' && verdicts.get(f.key)?.verdict !== 'true').map((f) => f.key);
    expect(errors, 'errors a maintainer would not accept').toEqual([]);
    const lost = [...verdicts.values()].filter((v) => v.verdict === 'true' && !found.has(v.finding)).map((v) => v.finding);
    expect(lost, 'findings judged true are no longer reported').toEqual([]);

    // Every instruction file the corpus lists (of the formats rulec reads) is in the bundle, and the bundle verifies.
    // Not canonical: .md files in .cursor/rules (Cursor reads .mdc), and a .github/copilot-instructions.md
    // below the root (GitHub documents the root one; Copilot CLI's extra read of the session directory's
    // copy is the Copilot CLI profile's business).
    const source = JSON.parse(readFileSync(join(CORPUS, entry, 'SOURCE.json'), 'utf8')) as { files: { path: string; kind: string }[] };
    const canonical = (p: string): boolean => !/^\.cursor\/rules\/.*\.md$/.test(p) && !/.\/\.github\/copilot-instructions\.md$/.test(p);
    const listed = source.files.filter((f) => f.kind !== 'import' && f.kind !== 'symlink-target' && canonical(f.path)).map((f) => f.path);
    const dir = writeBundle(out, result);
    const opened = openBundle(dir, { expectDigest: result.digest, verify: 'all' });
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((p) => !Object.hasOwn(opened.manifest.files, p))).toEqual([]);
    expect(existsSync(join(dir, 'manifest.json'))).toBe(true);
  });

  // Last in the file: it reads what every entry above scored (skipped when a filter ran only some).
  it("the README's score table is this run's", (ctx) => {
    if (scored.length !== entries.length) return ctx.skip();
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const table = scoreTable(scored);
    expect(readme, `README's corpus score table is stale; npm run corpus:score prints this one:\n${table}`).toContain(`\n${table}\n`);
  });
});

/** Precision per class (true / reported) and recall (reviewed items a true finding reports / reviewed items). */
function scoreTable(runs: typeof scored): string {
  const byClass = new Map<string, { true: number; noise: number; false: number }>();
  let expected = 0;
  let recalled = 0;
  for (const { review, found } of runs) {
    const verdicts = new Map((review.verdicts ?? []).map((v) => [v.finding, v]));
    const hit = new Set<number>();
    for (const f of found.values()) {
      const v = verdicts.get(f.key);
      if (!v) continue;
      const c = byClass.get(classOf(f)) ?? { true: 0, noise: 0, false: 0 };
      c[v.verdict]++;
      byClass.set(classOf(f), c);
      if (v.verdict === 'true' && v.expected !== undefined) hit.add(v.expected);
    }
    expected += review.expected.length;
    recalled += hit.size;
  }
  const pct = (n: number, d: number): string => (d === 0 ? '-' : `${Math.round((100 * n) / d)}%`);
  const lines = ['class                 reported  true  noise  false  precision'];
  for (const [c, n] of [...byClass].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const total = n.true + n.noise + n.false;
    lines.push(`${c.padEnd(20)}  ${String(total).padStart(8)}  ${String(n.true).padStart(4)}  ${String(n.noise).padStart(5)}  ${String(n.false).padStart(5)}  ${pct(n.true, total).padStart(9)}`);
  }
  lines.push(`recall: ${recalled} of ${expected} reviewed items reported (${pct(recalled, expected)})`);
  return lines.join('\n');
}
