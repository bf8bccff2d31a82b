/**
 * Ids across roots (#8.3) and object keys from paths (#8.4), end to end:
 * compile → write → open → explain (compiled and from the written bundle),
 * lint and explain --profile, on trees whose directory names are the names
 * that break plain objects (`__proto__`, `toString`, `valueOf`, `constructor`,
 * `hasOwnProperty`) or look like another root's prefix (`managed:`, `user:`).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { writeBundle } from '../../src/emit/write-bundle.js';
import { explainPath } from '../../src/report/explain.js';
import { openBundle } from '../../src/bundle/open-bundle.js';
import { explainCommand } from '../../src/cli/commands/explain.js';
import { lintCommand } from '../../src/cli/commands/lint.js';
import { makeTree, remove, type Made, type Tree } from './tree.js';

const made: Made[] = [];
afterAll(() => made.forEach(remove));
const tree = (repo: Tree, opts: Parameters<typeof makeTree>[1] = {}): Made => {
  const m = makeTree(repo, opts);
  made.push(m);
  return m;
};

function capture(cwd: string) {
  const chunks: string[] = [];
  return { chunks, io: { out: (t: string) => void chunks.push(t), err: (t: string) => void chunks.push(t), cwd } };
}

describe('ids across roots', () => {
  it('a repository directory named `managed:sub` and the managed file sub/AGENTS.md are two files, each resolving imports in its own root', async () => {
    const m = tree({
      'AGENTS.md': '# Root\n',
      'managed:sub/AGENTS.md': '# Repo file in a directory named managed:sub\n\nREPO-SIDE\n\n@notes.md\n',
      'managed:sub/notes.md': 'REPO-NOTES\n',
      'managed:sub/a.ts': 'x\n',
      'user:x/AGENTS.md': '# Repo file in a directory named user:x\n\nUSER-LOOKALIKE\n',
      'user:x/a.ts': 'x\n',
    }, { managed: { 'sub/AGENTS.md': '# Managed\n\nMANAGED-SIDE\n\n@notes.txt\n', 'sub/notes.txt': 'MANAGED-NOTES\n' } });
    const result = await compile({ repoDir: m.repo, managedDir: m.managed, outDir: join(m.dir, 'out') });
    const files = result.manifest.files as Record<string, { root: string; path: string; activation: string }>;
    expect(Object.entries(files).map(([id, f]) => [id, f.root, f.path, f.activation])).toEqual([
      ['AGENTS.md', 'repo', 'AGENTS.md', 'standing'],
      ['managed://sub/AGENTS.md', 'managed', 'sub/AGENTS.md', 'standing'],
      ['managed://sub/notes.txt', 'managed', 'sub/notes.txt', 'import'],
      ['managed:sub/AGENTS.md', 'repo', 'managed:sub/AGENTS.md', 'standing'],
      ['managed:sub/notes.md', 'repo', 'managed:sub/notes.md', 'import'],
      ['user:x/AGENTS.md', 'repo', 'user:x/AGENTS.md', 'standing'],
    ]);
    const at = (dir: string) => result.variants.find((v) => v.id === (result.manifest.index as Record<string, string>)[dir])?.text ?? '';
    expect(at('managed:sub')).toMatch(/MANAGED-SIDE[\s\S]*MANAGED-NOTES[\s\S]*REPO-SIDE[\s\S]*REPO-NOTES/);
    expect(at('')).not.toContain('REPO-SIDE');
    expect(at('user:x')).toContain('USER-LOOKALIKE');
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

const NAMES = ['__proto__', 'toString', 'valueOf', 'constructor', 'hasOwnProperty'];
const BARE = ['isPrototypeOf', 'toLocaleString', '__defineGetter__', 'toString/valueOf'];

function protoTree(): Tree {
  const t: Tree = {
    'AGENTS.md': '# Root\n\n- Use pnpm.\n',
    'CLAUDE.md': '# Root\n\n@__proto__/notes.md\n@propertyIsEnumerable\n',
    propertyIsEnumerable: 'A file named propertyIsEnumerable.\n',
    '.claude/rules/proto.md': '---\npaths: ["__proto__/**", "toString/**"]\n---\n# Proto rule\n\nPROTO-RULE\n',
  };
  // Directories without instruction files of their own: not in the index, so a lookup must not find Object.prototype's.
  for (const n of BARE) t[`${n}/a.ts`] = 'x\n';
  for (const n of NAMES) {
    t[`${n}/AGENTS.md`] = `# ${n}\n\nIN-${n}\n\n- Use npm.\n`;
    t[`${n}/src/a.ts`] = 'x\n';
    t[`${n}/notes.md`] = `NOTES-${n}\n`;
    t[`${n}/${n}/AGENTS.md`] = `# ${n}/${n}\n\nDEEP-${n}\n`;
  }
  return t;
}

describe('object keys from paths', () => {
  it('compile → write → explain works at every directory named like an Object.prototype property', async () => {
    const m = tree(protoTree());
    const result = await compile({ repoDir: m.repo, outDir: join(m.dir, 'out') });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const dir = writeBundle(join(m.dir, 'out'), result);
    // The whole manifest verified from disk, and the same bundle read part by part.
    const fromDisk = openBundle(dir, { verify: 'all' }).manifest;
    const lazy = openBundle(dir).lookup;
    const index = result.manifest.index as Record<string, string>;
    for (const n of NAMES) {
      expect(Object.hasOwn(index, n), `index has ${n}`).toBe(true);
      for (const manifest of [result.manifest, fromDisk, lazy]) {
        for (const [path, marker] of [[`${n}/src/a.ts`, `IN-${n}`], [n, `IN-${n}`], [`${n}/${n}/x.ts`, `DEEP-${n}`]] as const) {
          const e = explainPath(manifest, path);
          expect(e.variant.id, `${path}: variant`).toMatch(/^v-[0-9a-f]{16}$/);
          const text = result.variants.find((v) => v.id === e.variant.id)?.text ?? '';
          expect(text, `${path}: context`).toContain(marker);
          expect(e.sources.map((s) => s.id)).toContain(`${n}/AGENTS.md`);
        }
      }
    }
    for (const n of BARE) {
      for (const manifest of [result.manifest, fromDisk, lazy]) {
        expect(explainPath(manifest, n).variant.id, n).toBe(explainPath(manifest, n.includes('/') ? n.split('/')[0] as string : '').variant.id);
        expect(explainPath(manifest, `${n}/a.ts`).variant.id, n).toMatch(/^v-[0-9a-f]{16}$/);
      }
    }
    for (const manifest of [fromDisk, lazy]) {
      const proto = explainPath(manifest, '__proto__/src/a.ts');
      expect(proto.attachments.map((a) => a.sources[0]?.id)).toEqual(['.claude/rules/proto.md']);
      expect(explainPath(manifest, 'constructor').sources.map((s) => s.id)).toEqual(['AGENTS.md', 'CLAUDE.md', '__proto__/notes.md', 'propertyIsEnumerable', 'constructor/AGENTS.md']);
    }
  });

  it('explain and lint through the CLI commands name real variants and files', async () => {
    const m = tree(protoTree());
    for (const n of NAMES) {
      const o = capture(m.repo);
      expect(await explainCommand([`${n}/src/a.ts`, '--fresh'], o.io)).toBe(0);
      const text = o.chunks.join('');
      expect(text).toMatch(/variant v-[0-9a-f]{16}:/);
      expect(text).not.toContain('[object Object]');
      expect(text).not.toMatch(/function |native code/);
      expect(text).toContain(`${n}/AGENTS.md  [path, agents]`);
      const p = capture(m.repo);
      expect(await explainCommand([`${n}/src/a.ts`, '--profile', 'codex'], p.io)).toBe(0);
      expect(p.chunks.join('')).toContain(`${n}/AGENTS.md  [project]`);
    }
    const l = capture(m.repo);
    expect(await lintCommand(['toString', '--format', 'json'], l.io)).toBe(0);
    const shown = (JSON.parse(l.chunks.join('')) as { diagnostics: { file: string }[] }).diagnostics;
    expect(shown.every((d) => d.file === 'toString' || d.file.startsWith('toString/'))).toBe(true);
  });
});

describe('object keys from file contents', () => {
  it('a frontmatter key named __proto__ is a key, never a prototype (YAML and Cursor\'s lenient reading)', async () => {
    const { parseDoc } = await import('../../src/parse/parse-doc.js');
    const file = (rel: string, text: string, format: 'claude-rule' | 'cursor-rule') =>
      ({ id: rel, rel, root: 'repo' as const, format, layer: 'repo' as const, scope: '', bytes: Buffer.from(text), tracked: true });
    const lenient = parseDoc(file('.cursor/rules/x.mdc', '---\n__proto__:\nglobs: *.ts\nconstructor: x\n---\nbody\n', 'cursor-rule')).value;
    expect(Object.keys(lenient.frontmatter ?? {})).toEqual(['__proto__', 'globs', 'constructor']);
    expect(lenient.frontmatter?.globs).toBe('*.ts');
    expect(Object.keys(lenient.frontmatterKeys)).toEqual(['__proto__', 'globs', 'constructor']);
    const strict = parseDoc(file('.claude/rules/x.md', '---\n__proto__: {paths: ["a/**"]}\n---\nbody\n', 'claude-rule')).value;
    expect(strict.frontmatter?.paths).toBeUndefined();
    expect(Object.keys(strict.frontmatterKeys)).toEqual(['__proto__']);
  });
});
