/**
 * A statement is analysed once per build for each distinct text and heading key
 * (facts.ts StatementAnalyses): the memo must never hand one file's findings to
 * another whose headings change them, and no extractor may read the headings
 * except through its declared headingKey.
 */
import { describe, expect, it } from 'vitest';
import { factsOf, StatementAnalyses, type SourceFacts } from '../../src/conflicts/facts.js';
import { clausesOf, statementsOf } from '../../src/conflicts/statements.js';
import { TOPICS } from '../../src/conflicts/topics/index.js';
import { CONFLICTS } from './fixtures.js';
import { resolveTree } from './tree.js';

const findings = (f: SourceFacts | null): string[] =>
  [...(f?.topics ?? new Map()).entries()].flatMap(([topic, byKey]) => [...byKey.values()].flat().map((l) => `${topic} ${l.finding.value} ${l.line}:${l.col}`));

describe('statement analyses', () => {
  it('a statement pasted under a heading about branches and under another is told apart', () => {
    const line = '- **Pattern:** `publish/<package>-release-<MM-DD>`';
    const res = resolveTree({
      'AGENTS.md': `# Guide\n\n## Branch naming\n\n${line}\n`,
      'packages/api/AGENTS.md': `# API\n\n## Releases\n\nSome text first.\n\n${line}\n`,
      'packages/web/AGENTS.md': `# Web\n\n## Branches\n\nIntro.\n\n${line}\n`,
    });
    const shared = new StatementAnalyses();
    const of = (id: string): SourceFacts | null => {
      const s = res.sources.get(id);
      return s ? factsOf(s, undefined, shared) : null;
    };
    expect(findings(of('AGENTS.md'))).toEqual(['branch-name publish/<package>-release-<MM-DD> 5:17']);
    expect(findings(of('packages/api/AGENTS.md'))).toEqual([]);
    // Same key as the root's, another file and line: its own positions.
    expect(findings(of('packages/web/AGENTS.md'))).toEqual(['branch-name publish/<package>-release-<MM-DD> 7:17']);
    // Each file's facts equal those of an analysis of its own.
    for (const id of ['AGENTS.md', 'packages/api/AGENTS.md', 'packages/web/AGENTS.md']) {
      const s = res.sources.get(id);
      expect(s && findings(factsOf(s))).toEqual(findings(of(id)));
    }
  });

  it('no extractor reads the headings unless it declares a headingKey', () => {
    const untouchable = new Proxy([] as string[], {
      get(_target, key) {
        throw new Error(`read headings.${String(key)}`);
      },
    });
    const texts = CONFLICTS.flatMap((c) => Object.values(c.tree));
    let clauses = 0;
    for (const text of texts) {
      const lines = text.split('\n').map((t, i) => ({ line: i + 1, text: t }));
      for (const st of statementsOf(lines)) {
        for (const clause of clausesOf(st)) {
          clauses++;
          for (const t of TOPICS.filter((x) => !x.headingKey)) {
            expect(() => t.extract(clause, { statement: st.text, headings: untouchable }), t.topic).not.toThrow();
          }
        }
      }
    }
    expect(clauses).toBeGreaterThan(100);
    expect(TOPICS.filter((t) => t.headingKey).map((t) => t.topic)).toEqual(['branch-name']);
  });
});
