/**
 * A path given to rulec is resolved as the kernel resolves it (src/util/real-path.ts): `link/..`
 * is the parent of the link's target, as `cd link/..` takes it — not the link's own parent, which
 * node's realpathSync gives by removing `x/..` from the text before it follows any link.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { realPath } from '../src/util/real-path.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'rulec-realpath-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'target', 'sub'), { recursive: true });
mkdirSync(join(root, 'other'));
writeFileSync(join(root, 'target', 'AGENTS.md'), '# Target\n\nUse pnpm in the target.\n');
writeFileSync(join(root, 'other', 'AGENTS.md'), '# Other\n\nUse yarn in the other.\n');
symlinkSync(join(root, 'target', 'sub'), join(root, 'other', 'link'));
const throughLink = `${root}/other/link/..`;

describe('realPath', () => {
  it('resolves `link/..` to the parent of the link target', () => {
    expect(realPath(throughLink)).toBe(join(root, 'target'));
    // What it replaces: node's own realpathSync names the link's parent instead.
    expect(realpathSync(throughLink)).toBe(join(root, 'other'));
  });

  it('a build of `link/..` builds the directory the kernel resolves it to', async () => {
    const result = await compile({ repoDir: throughLink });
    const text = result.variants.map((v) => v.text).join('\n');
    expect(text).toContain('Use pnpm in the target.');
    expect(text).not.toContain('Use yarn in the other.');
  });
});
