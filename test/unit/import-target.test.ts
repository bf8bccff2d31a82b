import { describe, expect, it } from 'vitest';
import { importCandidates, importTarget, looksLikePath, type ImportRoots, type ImportTarget, type SourcePlace } from '../../src/parse/import-target.js';
import type { Root } from '../../src/types.js';
import { sourceId } from '../../src/util/source-id.js';

const roots: ImportRoots = { repo: '/work/repo', managed: '/etc/rulec', home: '/home/u' };
const noHome: ImportRoots = { repo: '/work/repo', managed: '/etc/rulec' };

/** Test rows name places as `root:rel` for brevity (`managed:a.md`); the API never parses such strings. */
const place = (spec: string): SourcePlace => {
  const m = /^(managed|user):(.*)$/.exec(spec);
  return m ? { root: m[1] as Root, rel: m[2] as string } : { root: 'repo', rel: spec };
};
const file = (spec: string): ImportTarget => {
  const p = place(spec);
  return { kind: 'file', root: p.root, rel: p.rel, id: sourceId(p.root, p.rel) };
};
const outside = (why: string): ImportTarget => ({ kind: 'outside', why });
const ABOVE_REPO = outside('resolves above the repository root');
const ABS_OUTSIDE = outside('absolute path outside the root');

describe('importTarget', () => {
  it.each<[string, string, ImportRoots, ImportTarget]>([
    ['CLAUDE.md', 'docs/a.md', roots, file('docs/a.md')],
    ['packages/api/CLAUDE.md', 'x.md', roots, file('packages/api/x.md')],
    ['packages/api/CLAUDE.md', './x.md', roots, file('packages/api/x.md')],
    ['packages/api/CLAUDE.md', '../shared/x.md', roots, file('packages/shared/x.md')],
    ['packages/api/CLAUDE.md', '../../x.md', roots, file('x.md')],
    ['packages/api/CLAUDE.md', 'a/./b/../c.md', roots, file('packages/api/a/c.md')],
    ['packages/api/CLAUDE.md', '../../../x.md', roots, ABOVE_REPO],
    ['CLAUDE.md', '../x.md', roots, ABOVE_REPO],
    ['CLAUDE.md', '.', roots, ABOVE_REPO],
    ['CLAUDE.md', 'a/..', roots, ABOVE_REPO],
    ['CLAUDE.md', '/work/repo/docs/a.md', roots, file('docs/a.md')],
    ['packages/api/CLAUDE.md', '/work/repo/docs/a.md', roots, file('docs/a.md')],
    ['CLAUDE.md', '/work/repo/./docs//a.md', roots, file('docs/a.md')],
    ['CLAUDE.md', '/work/repo', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repo/', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repository/x.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/etc/passwd', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repo/../secret.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repo/a/../../repo2/x.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/other/../repo/x.md', roots, file('x.md')],
    ['CLAUDE.md', '/etc/rulec/base.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '~/x.md', roots, outside('@~/ imports are only allowed in managed and user files')],
    ['CLAUDE.md', '~/x.md', noHome, outside('@~/ imports are only allowed in managed and user files')],
    ['managed:policies/base.md', 'extra.md', roots, file('managed:policies/extra.md')],
    ['managed:policies/base.md', '../top.md', roots, file('managed:top.md')],
    ['managed:policies/base.md', '../../x.md', roots, outside('resolves above the managed root')],
    ['managed:base.md', '/etc/rulec/sub/a.md', roots, file('managed:sub/a.md')],
    ['managed:base.md', '/work/repo/a.md', roots, ABS_OUTSIDE],
    ['managed:base.md', '/etc/rulec/a.md', { repo: '/work/repo' }, ABS_OUTSIDE],
    ['managed:base.md', '~/x.md', roots, outside('imports from the home directory are not read')],
    ['managed:base.md', '~/x.md', noHome, outside('the home directory is not part of this build (pass --include-user)')],
    ['user:CLAUDE.md', 'rules/x.md', roots, file('user:rules/x.md')],
    ['user:CLAUDE.md', '/home/u/y.md', roots, file('user:y.md')],
    ['user:CLAUDE.md', '../x.md', roots, outside('resolves above the user root')],
    // A repo directory literally named `managed:` stays in the repository.
    ['managed:sub/CLAUDE.md', 'x.md', roots, file('managed:sub/x.md')],
    ['CLAUDE.md', 'managed:sub/AGENTS.md', roots, { kind: 'file', root: 'repo', rel: 'managed:sub/AGENTS.md', id: 'managed:sub/AGENTS.md' }],
  ])('%s imports %s', (from, target, r, expected) => {
    expect(importTarget(place(from), target, r)).toEqual(expected);
  });
});

describe('importCandidates', () => {
  it.each<[string, string[]]>([
    ['AGENTS.md', ['AGENTS.md']],
    ['AGENTS.md.', ['AGENTS.md.', 'AGENTS.md']],
    ['docs/a.md),', ['docs/a.md),', 'docs/a.md']],
    ["x.md'", ["x.md'", 'x.md']],
    ['x.md"]}!?;:', ['x.md"]}!?;:', 'x.md']],
    ['...', ['...']],
    ['./x', ['./x']],
    ['.x.', ['.x.', '.x']],
  ])('%j → %j', (target, expected) => {
    expect(importCandidates(target)).toEqual(expected);
  });
});

describe('looksLikePath', () => {
  it.each<[string, boolean]>([
    ['./docs/x', true],
    ['../x', true],
    ['~/notes', true],
    ['docs/x.md', true],
    ['docs/x', false],
    ['testing-library/react', false],
    ['/mocks', false],
    ['/components/ui', false],
    ['/etc/passwd', true],
    ['/home/me/.aws/credentials', true],
    ['/proc/self/environ', true],
    ['arendjr](https://github.com/arendjr)', false],
    ['Bug/@Maintain', false],
    ['./x.md](https://example.com/x.md)', false],
    ['x.md', true],
    ['x.MDC', true],
    ['x.markdown', true],
    ['notes.txt', true],
    ['x.md.', true],
    ['x.md),', true],
    ['me', false],
    ['Component', false],
    ['x.ts', false],
    ['user.name', false],
    ['md', false],
  ])('%j → %j', (target, expected) => {
    expect(looksLikePath(target)).toBe(expected);
  });
});

describe('importTarget: tokens no file system accepts', () => {
  it.each<[string, string]>([
    ['a/'.repeat(130_000) + 'x.md', 'characters long'],
    ['x'.repeat(4097), 'characters long'],
    [`${'n'.repeat(256)}.md`, 'file-name limit'],
    [`docs/${'é'.repeat(128)}.md`, 'file-name limit'],
  ])('%#: refused as invalid', (target, why) => {
    const t = importTarget({ root: 'repo', rel: 'CLAUDE.md' }, target, roots);
    expect(t.kind).toBe('invalid');
    expect(t.kind === 'invalid' && t.why).toContain(why);
  });

  it('accepts the longest legal name', () => {
    expect(importTarget({ root: 'repo', rel: 'CLAUDE.md' }, `${'n'.repeat(252)}.md`, roots).kind).toBe('file');
  });
});

describe('source ids', () => {
  it('never collide across roots, whatever a repository directory is called', () => {
    const repoPaths = ['managed:sub/AGENTS.md', 'managed:/sub/AGENTS.md', 'user:x.md', 'managed:', 'a/managed://b'];
    const others = [sourceId('managed', 'sub/AGENTS.md'), sourceId('user', 'x.md'), sourceId('managed', 'a')];
    for (const p of repoPaths) expect(others).not.toContain(sourceId('repo', p));
    expect(others).toEqual(['managed://sub/AGENTS.md', 'user://x.md', 'managed://a']);
  });
});
