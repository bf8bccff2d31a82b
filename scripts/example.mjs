#!/usr/bin/env node
// npm run example: copy the bundled example workspace (examples/monorepo, with
// the managed policy in examples/managed) to .example/, make it a git
// repository whose personal files stay untracked, then build its bundle and
// explain one path — the main job of rulec, end to end.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, '.example');
const repo = join(work, 'monorepo');
const managed = join(root, 'examples', 'managed');
const { untracked = [] } = JSON.parse(readFileSync(join(root, 'examples', 'monorepo.json'), 'utf8'));

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
cpSync(join(root, 'examples', 'monorepo'), repo, { recursive: true });
const env = {
  ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'example', GIT_AUTHOR_EMAIL: 'example@example.invalid', GIT_COMMITTER_NAME: 'example', GIT_COMMITTER_EMAIL: 'example@example.invalid',
};
const git = (...args) => execFileSync('git', args, { cwd: repo, env, stdio: 'pipe' });
git('-c', 'init.defaultBranch=main', 'init', '-q');
writeFileSync(join(repo, '.git', 'info', 'exclude'), untracked.map((p) => `/${p}\n`).join(''));
git('add', '-A');
git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'example monorepo');

const rulec = (...args) => {
  console.log(`\n$ rulec ${args.join(' ')}`);
  try {
    process.stdout.write(execFileSync(process.execPath, [join(root, 'dist', 'cli', 'bin.js'), ...args], { cwd: repo, encoding: 'utf8' }));
  } catch (e) {
    process.stdout.write(e.stdout ?? '');
    process.stderr.write(e.stderr ?? '');
    process.exit(e.status ?? 2);
  }
};
console.log(`example workspace: ${repo}`);
rulec('build', '--managed', managed, '--include-local');
rulec('explain', 'packages/api/src/routes/orders.ts', '--managed', managed, '--include-local');
console.log(`\nTry: cd .example/monorepo && node ../../dist/cli/bin.js explain packages/web/src/App.tsx --managed ../../examples/managed`);
