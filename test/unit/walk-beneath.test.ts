/**
 * walkBeneath() over an in-memory tree: the one confinement walk that the
 * work-tree reader (readConfined) and the git-tree reader share. Each row is
 * a path and what the walk must end in.
 */
import { describe, expect, it } from 'vitest';
import { walkBeneath, type Entry } from '../../src/util/walk-beneath.js';

/** Files hold their own path; `->` marks a link (`/x` is root-relative, `!` outside). */
const TREE: Record<string, string> = {
  'a/b.md': 'file',
  'a/link.md': '-> b.md',
  'a/up.md': '-> ../top.md',
  'top.md': 'file',
  'a/out': '-> !',
  'a/root': '-> /a',
  'a/broken': '-> nothing.md',
  'loop1': '-> loop2',
  'loop2': '-> loop1',
  'sub': '-> a',
  'err': 'error',
  'long': 'unreachable',
};

function lookup(path: string): Entry<string> {
  const v = TREE[path];
  if (v === undefined) return Object.keys(TREE).some((k) => k.startsWith(`${path}/`)) ? { kind: 'dir', value: path } : { kind: 'absent' };
  if (v === 'error') return { kind: 'error', code: 'EIO' };
  if (v === 'unreachable') return { kind: 'missing' };
  if (!v.startsWith('-> ')) return { kind: 'file', value: path };
  const t = v.slice(3);
  return { kind: 'link', target: t === '!' ? 'outside' : t.startsWith('/') ? { path: t.slice(1), fromRoot: true } : { path: t, fromRoot: false } };
}

describe('walkBeneath', () => {
  it.each([
    ['a/b.md', { kind: 'file', value: 'a/b.md', realRel: 'a/b.md', links: 0 }],
    ['a', { kind: 'dir', value: 'a', realRel: 'a', links: 0 }],
    ['a/link.md', { kind: 'file', value: 'a/b.md', realRel: 'a/b.md', links: 1 }],
    ['a/up.md', { kind: 'file', value: 'top.md', realRel: 'top.md', links: 1 }],
    ['sub/b.md', { kind: 'file', value: 'a/b.md', realRel: 'a/b.md', links: 1 }],
    ['a/root/b.md', { kind: 'file', value: 'a/b.md', realRel: 'a/b.md', links: 1 }],
    ['a/./b.md', { kind: 'file', value: 'a/b.md', realRel: 'a/b.md', links: 0 }],
    ['a/../top.md', { kind: 'file', value: 'top.md', realRel: 'top.md', links: 0 }],
    ['../top.md', { kind: 'outside' }],
    ['a/../../top.md', { kind: 'outside' }],
    ['a/out', { kind: 'outside' }],
    ['a/out/x.md', { kind: 'outside' }],
    ['a/broken', { kind: 'broken' }],
    ['a/nothing.md', { kind: 'missing' }],
    ['a/b.md/c.md', { kind: 'missing' }],
    ['loop1', { kind: 'loop' }],
    ['err', { kind: 'error', code: 'EIO' }],
    ['long', { kind: 'missing' }],
    ['', { kind: 'missing' }],
  ])('%s', (rel, expected) => {
    expect(walkBeneath(rel, lookup)).toEqual(expected);
  });

  it('asks nothing beyond the first step out of the root', () => {
    const asked: string[] = [];
    walkBeneath('a/out/x.md', (p) => (asked.push(p), lookup(p)));
    expect(asked).toEqual(['a', 'a/out']);
  });
});
