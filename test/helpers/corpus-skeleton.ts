/**
 * The corpus skeleton rebuild.sh makes, made by one `git fast-import` and one
 * `git reset --hard` instead of a process per file and a loose object per
 * directory: every tracked path an empty file, the files under `files/` with
 * their bytes and modes, the symbolic links of SOURCE.json's `symlinks`, and
 * one commit with rebuild.sh's author, committer, date and message. The
 * result is the same commit id (test/corpus/skeleton.test.ts compares it with
 * rebuild.sh's), so the same tree, modes and bytes, for about a third of the
 * CPU (all 25 entries one after the other: 9 s against 25 s); the suite builds
 * them on every fresh clone.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Command } from './repo-cache.js';

/** This file: what a built skeleton also depends on. */
export const SKELETON_BUILDER = import.meta.filename;

/** rebuild.sh's fixed identity and date, and the git settings it keeps user and system configuration out with. */
export const SKELETON_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'corpus', GIT_AUTHOR_EMAIL: 'corpus@example.invalid',
  GIT_COMMITTER_NAME: 'corpus', GIT_COMMITTER_EMAIL: 'corpus@example.invalid',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00+0000', GIT_COMMITTER_DATE: '2000-01-01T00:00:00+0000',
};
const SIGNATURE = 'corpus <corpus@example.invalid> 946684800 +0000';

interface Entry { mode: '100644' | '100755' | '120000'; bytes: Buffer }

/** The files under `dir`, as rebuild.sh's `find -type f -o -type l` sees them (repo-relative paths). */
function realFiles(dir: string, rel = ''): [string, Entry][] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e): [string, Entry][] => {
    const path = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) return realFiles(dir, path);
    if (e.isSymbolicLink()) return [[path, { mode: '120000', bytes: Buffer.from(readlinkSync(join(dir, path))) }]];
    if (!e.isFile()) return [];
    // cp keeps the owner's execute bit (the umask does not take it), and git add records it.
    const mode = (lstatSync(join(dir, path)).mode & 0o100) !== 0 ? '100755' : '100644';
    return [[path, { mode, bytes: readFileSync(join(dir, path)) }]];
  });
}

/** A path as fast-import reads it: C-style quoted, so no character in it is taken for syntax. */
function quoted(path: string): string {
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\x00-\x1f\x7f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;
}

/** The fast-import stream that commits entry `src`'s skeleton to refs/heads/main. */
export function skeletonStream(src: string): Buffer {
  const source = JSON.parse(readFileSync(join(src, 'SOURCE.json'), 'utf8')) as { repo: string; commit: string; symlinks?: Record<string, string> };
  const files = new Map<string, Entry>();
  const empty: Entry = { mode: '100644', bytes: Buffer.alloc(0) };
  for (const path of gunzipSync(readFileSync(join(src, 'paths.txt.gz'))).toString('utf8').split('\n')) if (path !== '') files.set(path, empty);
  for (const [path, entry] of realFiles(join(src, 'files'))) files.set(path, entry);
  for (const [path, target] of Object.entries(source.symlinks ?? {})) files.set(path, { mode: '120000', bytes: Buffer.from(target) });

  const parts: Buffer[] = [];
  const blobs = new Map<string, number>();
  const blob = (bytes: Buffer): number => {
    const key = bytes.toString('latin1');
    let mark = blobs.get(key);
    if (mark === undefined) {
      mark = blobs.size + 1;
      blobs.set(key, mark);
      parts.push(Buffer.from(`blob\nmark :${mark}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
    }
    return mark;
  };
  const changes = [...files].map(([path, e]) => `M ${e.mode} :${blob(e.bytes)} ${quoted(path)}\n`);
  const message = Buffer.from(`skeleton of ${source.repo} at ${source.commit}\n\nEvery tracked path is an empty file except the agent instruction files.\n`);
  parts.push(Buffer.from(`commit refs/heads/main\nauthor ${SIGNATURE}\ncommitter ${SIGNATURE}\ndata ${message.length}\n`), message,
    Buffer.from(changes.join('')), Buffer.from('done\n'));
  return Buffer.concat(parts);
}

/** The processes that make entry `src`'s skeleton in the empty directory `cwd`. */
export function skeletonCommands(src: string, cwd: string): Command[] {
  return [
    { file: 'git', args: ['-c', 'init.defaultBranch=main', 'init', '-q', '--template=', '.'], cwd, env: SKELETON_ENV },
    { file: 'git', args: ['fast-import', '--quiet'], cwd, env: SKELETON_ENV, input: skeletonStream(src) },
    // Checks out every file and records its stat in the index, as git add did: a build's dirty check hashes nothing.
    { file: 'git', args: ['-c', 'core.autocrlf=false', 'reset', '-q', '--hard'], cwd, env: SKELETON_ENV },
  ];
}
