/**
 * readConfined(), the one reader (#8.1), on its own: paths that are not plain
 * paths below the root, special files and file systems, size limits.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfined, type ReadOutcome } from '../../src/confined/read-confined.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'rulec-read-')));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'rulec-read-out-')));
afterAll(() => [root, outside].forEach((d) => rmSync(d, { recursive: true, force: true })));
writeFileSync(join(outside, 'secret.md'), 'secret\n');
mkdirSync(join(root, 'docs'));
writeFileSync(join(root, 'docs', 'a.md'), 'hello\n');
writeFileSync(join(root, 'big.md'), 'x'.repeat(101));
symlinkSync(outside, join(root, 'out'));
symlinkSync('docs', join(root, 'alias'));

const summary = (r: ReadOutcome): string =>
  r.ok ? `ok ${Buffer.from(r.bytes).toString()}@${r.realRel}` : r.missing ? 'missing' : `${r.diagnostic.code} ${r.diagnostic.message}`;

describe('readConfined', () => {
  it.each<[string, RegExp]>([
    ['docs/a.md', /^ok hello\n@docs\/a\.md$/],
    ['alias/a.md', /^ok hello\n@docs\/a\.md$/],
    ['docs/none.md', /^missing$/],
    ['docs', /^missing$/],
    ['out/secret.md', /^RC1002 /],
    ['../' + outside.split('/').pop() + '/secret.md', /^RC1002 path is not a plain path/],
    ['docs/../out/secret.md', /^RC1002 path is not a plain path/],
    ['./docs/a.md', /^RC1002 path is not a plain path/],
    ['docs//a.md', /^RC1002 path is not a plain path/],
    [outside + '/secret.md', /^RC1002 path is not a relative path/],
    ['', /^RC1002 /],
    ['docs/a.md\0x', /^RC1002 /],
    ['a/'.repeat(3000) + 'x', /^missing$/],
    ['n'.repeat(300), /^missing$/],
    ['big.md', /^RC1006 file is 101 bytes, over the 100-byte read limit/],
  ])('%j → %s', (rel, expected) => {
    expect(summary(readConfined(root, rel, rel, 100))).toMatch(expected);
  });

  it.runIf(existsSync('/proc/self/environ'))('refuses /proc files even when /proc is the root', () => {
    expect(summary(readConfined('/proc', 'self/environ', 'x', 1 << 20))).toMatch(/^RC1007 .*special file system/);
    expect(summary(readConfined('/proc', 'self/status', 'x', 1 << 20))).toMatch(/^RC1007 /);
  });

  it.runIf(existsSync('/dev/null'))('refuses devices without opening them', () => {
    expect(summary(readConfined('/dev', 'null', 'x', 100))).toMatch(/^RC1007 .*device/);
    expect(summary(readConfined('/dev', 'zero', 'x', 100))).toMatch(/^RC1007 .*device/);
  });
});
