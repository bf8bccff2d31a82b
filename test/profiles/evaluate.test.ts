import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateProfiles } from '../../src/profiles/evaluate.js';
import { profileByName } from '../../src/profiles/registry.js';
import { memoryView } from './repo-view.js';

/** `n` bytes of ordinary prose (a long run of one letter would make BPE slow). */
const big = (n: number, word = 'rule '): string => `${word.repeat(Math.ceil(n / word.length)).slice(0, n - 1)}\n`;

describe('evaluateProfiles', () => {
  it('reports a Codex cut once, summing the paths of every variant where it happens', () => {
    const files: Record<string, string> = { 'AGENTS.md': big(32_000), 'packages/api/AGENTS.md': big(2_000, 'api ') };
    for (let i = 0; i < 199; i++) files[`packages/api/src/f${i}.ts`] = '';
    for (let i = 0; i < 12; i++) files[`packages/api/src/deep/f${i}.ts`] = '';
    for (let i = 0; i < 4; i++) files[`r${i}.ts`] = '';
    const view = memoryView(files);
    const variants = [
      { id: 'v1', dirs: ['packages/api/src', 'packages/api'], pathCount: 200 },
      { id: 'v2', dirs: ['packages/api/src/deep'], pathCount: 12 },
      { id: 'v0', dirs: [''], pathCount: 5 },
    ];
    const r = evaluateProfiles(view, variants, ['codex'], {}, () => ['AGENTS.md', 'packages/api/AGENTS.md']);
    expect(r.diagnostics).toEqual([{
      code: 'RC5502', severity: 'warning', file: 'packages/api/AGENTS.md',
      range: { start: { line: 1, col: 1 }, end: { line: 1, col: 1 } },
      message: 'Codex truncates packages/api/AGENTS.md at 212 paths at byte 768, 1,232 bytes lost: the root AGENTS.md uses 32,000 of 32,768 bytes',
      hint: expect.any(String),
    }]);
    expect(r.value.v0?.codex?.fits).toBe(true);
    expect(r.value.v1?.codex).toMatchObject({ fits: false, dropped: ['packages/api/AGENTS.md'] });
    expect(r.value.v1?.codex?.bytes).toBe(profileByName('codex')!.load(view, 'packages/api', {}).bytes);
  });

  it('reports a file dropped whole with the budget that starved it', () => {
    const view = memoryView({ 'AGENTS.md': big(40), 'packages/api/AGENTS.md': 'api\n', 'packages/api/a.ts': '', 'packages/api/b.ts': '' });
    const r = evaluateProfiles(view, [{ id: 'v', dirs: ['packages/api'], pathCount: 3 }], ['codex'],
      { codex: { project_doc_max_bytes: 40 } }, () => ['AGENTS.md', 'packages/api/AGENTS.md']);
    expect(r.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['RC5501', 'packages/api/AGENTS.md', 'Codex drops packages/api/AGENTS.md at 3 paths: the root AGENTS.md uses 40 of 40 bytes'],
    ]);
  });

  it.each([
    ['Before changing a package, read its `AGENTS.md` if it has one.', 'RC5508'],
    ['You MUST use the Read tool to load packages/api/AGENTS.md.', 'RC5508'],
    // One sentence wrapped onto the next line of its paragraph (getsentry/sentry-java's CLAUDE.md).
    ['you MUST use the Read tool to load\n[AGENTS.md](AGENTS.md) and follow ALL of its instructions.', 'RC5508'],
    // A blank line ends the paragraph: the next one only links the file. Line endings count alike.
    ['Read the contributing guide first:\n\n[AGENTS.md](packages/api/AGENTS.md)', 'RC5503'],
    ['Read the contributing guide first:\r\n\r\n[AGENTS.md](packages/api/AGENTS.md)', 'RC5503'],
    ['you MUST use the Read tool to load\r\n[AGENTS.md](AGENTS.md) and follow ALL of its instructions.', 'RC5508'],
    // So does any other block: a heading never wraps, and a list item or a heading starts its own block.
    ['## Reading order\nSee [AGENTS.md](packages/api/AGENTS.md) for the API.', 'RC5503'],
    ['- Read the docs\n- See [AGENTS.md](packages/api/AGENTS.md)', 'RC5503'],
    ['Read the docs\n## API\nSee [AGENTS.md](packages/api/AGENTS.md)', 'RC5503'],
    ['1. Read the guide\n2. [AGENTS.md](packages/api/AGENTS.md)', 'RC5503'],
    ['See [AGENTS.md](packages/api/AGENTS.md) for the API.', 'RC5503'],
    ['After compaction, re-read `AGENTS.md` files relevant to your task.', 'RC5503'],
  ])('a CLAUDE.md saying %j: the skipped AGENTS.md is %s', (line, code) => {
    const view = memoryView({ 'CLAUDE.md': `# Guide\n\n${line}\n`, 'packages/api/AGENTS.md': 'a\n', 'packages/api/x.ts': '' });
    const r = evaluateProfiles(view, [{ id: 'v', dirs: ['packages/api'], pathCount: 2 }], ['claude-code'], {}, () => ['CLAUDE.md', 'packages/api/AGENTS.md']);
    expect(r.diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual([`${code} packages/api/AGENTS.md`]);
  });

  it('flags AGENTS.md that Claude ignores under a CLAUDE.md, and unknown profiles', () => {
    const files: Record<string, string> = { 'CLAUDE.md': 'c\n', 'packages/api/AGENTS.md': 'a\n' };
    for (let i = 0; i < 6; i++) files[`packages/api/f${i}.ts`] = '';
    const view = memoryView(files);
    const r = evaluateProfiles(view, [{ id: 'v', dirs: ['packages/api'], pathCount: 7 }], ['claude-code', 'nope'], {},
      () => ['CLAUDE.md', 'packages/api/AGENTS.md']);
    expect(r.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['RC5505', '', "unknown agent profile 'nope' in profiles.enabled"],
      ['RC5503', 'packages/api/AGENTS.md', 'Claude Code does not load packages/api/AGENTS.md at 7 paths where rulec does: ignored: a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on the path to cwd'],
    ]);
    expect(r.value.v?.['claude-code']?.fits).toBe(true);
  });

  it('notes project files an agent loads beyond the canonical model', () => {
    const view = memoryView({ 'AGENTS.md': 'a\n', 'docs/CLAUDE.md': 'c\n' });
    const r = evaluateProfiles(view, [{ id: 'v', dirs: ['docs'], pathCount: 2 }], ['codex'],
      { codex: { fallback_filenames: ['CLAUDE.md'] } }, () => ['AGENTS.md']);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.file])).toEqual([['RC5504', 'info', 'docs/CLAUDE.md']]);
  });
});

describe('Codex budget (property)', () => {
  it('keeps at most project_doc_max_bytes of project bytes, root-first, as the lossy decode of each prefix', () => {
    const codex = profileByName('codex')!;
    const dec = new TextDecoder('utf-8', { ignoreBOM: true });
    fc.assert(fc.property(
      fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }),
      fc.nat({ max: 120 }),
      (texts, max) => {
        const dirs = texts.map((_, i) => Array.from({ length: i }, (_, j) => `d${j}`).join('/'));
        const files = Object.fromEntries(texts.map((t, i) => [dirs[i] === '' ? 'AGENTS.md' : `${dirs[i]}/AGENTS.md`, t]));
        const r = codex.load(memoryView(files), dirs[dirs.length - 1]!, { project_doc_max_bytes: max });
        const kept = r.files.reduce((n, f) => n + f.keptBytes, 0);
        expect(kept).toBeLessThanOrEqual(max);
        for (const f of r.files.filter((x) => x.cut)) {
          const raw = new TextEncoder().encode(files[f.path]!);
          expect(f.cut!.offset + f.cut!.bytesLost).toBe(raw.length);
          expect(r.text).toContain(dec.decode(raw.subarray(0, f.cut!.offset)));
        }
        expect(r.truncated).toBe(r.files.some((f) => f.cut !== undefined || (f.skipped ?? '').startsWith('budget')));
      }), { numRuns: 200 });
  });
});
