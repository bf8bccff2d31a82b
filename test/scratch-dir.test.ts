/** The suite's TMPDIR choice (helpers/scratch-dir.ts): a usable tmpfs only, and never over the caller's own. */
import { describe, expect, it } from 'vitest';
import { scratchDir, SHM, usableTmpfs } from './helpers/scratch-dir.js';

const line = (point: string, type: string, opts: string): string => `${type} ${point} ${type} ${opts} 0 0`;

describe('scratch directory', () => {
  it.each([
    ['a read-write tmpfs', [line(SHM, 'tmpfs', 'rw,relatime,size=100k')], true],
    ['noexec', [line(SHM, 'tmpfs', 'rw,nosuid,nodev,noexec')], false],
    ['read-only', [line(SHM, 'tmpfs', 'ro,relatime')], false],
    ['not a tmpfs', [line(SHM, 'ext4', 'rw,relatime')], false],
    ['not mounted', [line('/run', 'tmpfs', 'rw')], false],
    ['mounted over by a noexec tmpfs (the last mount wins)', [line(SHM, 'tmpfs', 'rw'), line(SHM, 'tmpfs', 'rw,noexec')], false],
    ['a prefix of the point is another point', [line(`${SHM}x`, 'tmpfs', 'rw')], false],
  ])('%s', (_label, lines, usable) => {
    expect(usableTmpfs(lines.join('\n'), SHM)).toBe(usable);
  });

  it('keeps the TMPDIR the caller set', () => {
    expect(scratchDir({ TMPDIR: '/somewhere/else' }, line(SHM, 'tmpfs', 'rw'))).toBe('/somewhere/else');
  });

  it('leaves the system default when there is no usable tmpfs', () => {
    expect(scratchDir({}, line(SHM, 'tmpfs', 'rw,noexec'))).toBeNull();
  });
});
