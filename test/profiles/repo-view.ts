/**
 * A RepoView over a fixture directory for profile tests. Fixtures are stored
 * without `.git` and with `.gitignore` renamed `_gitignore` (so they never
 * hide files from rulec's own repository); the view restores the name.
 * `<fixture>.home/` next to a fixture is the private HOME of an oracle run.
 * Symbolic links are listed as git lists them (one entry, never descended)
 * and followed when read; `listing` (recorded by capture.mjs) gives the
 * readdir order the agent saw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DirEntry, RepoView } from '../../src/profiles/types.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

function listFiles(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) out.push(...listFiles(path.join(dir, e.name), rel));
    else if (e.isFile() || e.isSymbolicLink()) out.push(rel);
  }
  return out;
}

const restore = (p: string): string => (p === '_gitignore' ? '.gitignore' : p);
const stored = (p: string): string => (p === '.gitignore' ? '_gitignore' : p);

/** Reads `rel` under `root` unless it escapes `root`. */
function readUnder(root: string, rel: string): Uint8Array | undefined {
  const abs = path.resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + path.sep)) return undefined;
  try {
    return new Uint8Array(fs.readFileSync(abs));
  } catch {
    return undefined;
  }
}

/** `abs` after following every link, relative to `root`, or undefined when missing or outside. */
function realUnder(root: string, abs: string): string | undefined {
  try {
    const real = fs.realpathSync(abs);
    const rel = path.relative(fs.realpathSync(root), real);
    return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
  } catch {
    return undefined;
  }
}

export interface FixtureDisplay {
  root?: string;
  home?: string;
  /** Directory → entry names in the order the agent's file system listed them (a run's `listing`). */
  listing?: Record<string, string[]>;
}

export function fixtureView(name: string, display: FixtureDisplay = {}): RepoView {
  const root = path.join(FIXTURES, name);
  const home = path.join(FIXTURES, `${name}.home`);
  const sort = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const listing = display.listing;
  const listDir = (dir: string): DirEntry[] | undefined => {
    const names = listing && Object.prototype.hasOwnProperty.call(listing, dir) ? listing[dir] : undefined;
    if (!names) return undefined;
    const base = dir.startsWith('~/') ? path.join(home, dir.slice(2)) : path.join(root, stored(dir));
    return names.map((n) => ({ name: n, isDir: fs.statSync(path.join(base, n), { throwIfNoEntry: false })?.isDirectory() ?? false }));
  };
  return {
    ...(listing ? { listDir } : {}),
    realPath: (rel) => realUnder(root, path.join(root, stored(rel))),
    paths: listFiles(root).map(restore).sort(sort),
    // The oracle keeps import targets "outside the repository" in ../_outside.
    read: (rel) => (rel.startsWith('../_outside/') ? readUnder(path.join(FIXTURES, '_outside'), rel.slice(12)) : readUnder(root, stored(rel))),
    readHome: (rel) => readUnder(home, rel),
    homePaths: listFiles(home).sort(sort),
    rootDisplay: display.root ?? '<FIXTURE>',
    homeDisplay: display.home ?? '<HOME>',
  };
}

/** An in-memory view for table tests: `files` maps repo paths to text or bytes. */
export function memoryView(files: Record<string, string | Uint8Array>, homeFiles: Record<string, string | Uint8Array> = {}): RepoView {
  const enc = new TextEncoder();
  const bytes = (v: string | Uint8Array): Uint8Array => (typeof v === 'string' ? enc.encode(v) : v);
  const sort = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return {
    paths: Object.keys(files).sort(sort),
    read: (rel) => (rel in files ? bytes(files[rel] as string | Uint8Array) : undefined),
    readHome: (rel) => (rel in homeFiles ? bytes(homeFiles[rel] as string | Uint8Array) : undefined),
    homePaths: Object.keys(homeFiles).sort(sort),
    rootDisplay: '/repo',
    homeDisplay: '/home/u',
  };
}
