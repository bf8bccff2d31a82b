/**
 * Table tests for each topic extractor: what a line prescribes, and lines that
 * only look like they do. A finding prints as `value`, `not value`, or
 * `key:value`.
 */
import { describe, expect, it } from 'vitest';
import { clausesOf, statementsOf } from '../../src/conflicts/statements.js';
import { TOPICS, topicByName } from '../../src/conflicts/topics/index.js';
import { normaliseCommand } from '../../src/conflicts/topics/command.js';
import { versionsCompatible } from '../../src/conflicts/topics/runtime-version.js';
import { sameSubject } from '../../src/conflicts/topics/directive.js';
import { pathsOverlap } from '../../src/conflicts/topics/protected-paths.js';

function run(topic: string, line: string): string[] {
  const t = topicByName(topic);
  if (!t) throw new Error(topic);
  const [st] = statementsOf([{ line: 1, text: line }]);
  if (!st) return [];
  return clausesOf(st).flatMap((c) => t.extract(c)).map((f) => `${f.key ? `${f.key}:` : ''}${f.negated ? 'not ' : ''}${f.value}`);
}

const TABLE: Record<string, [string, string[]][]> = {
  'package-manager': [
    ['- Use pnpm 9; do not use npm or yarn.', ['pnpm', 'not npm', 'not yarn']],
    ['Install with `pnpm install --frozen-lockfile`.', ['pnpm']],
    ['Acme Shop is a pnpm monorepo.', ['pnpm']],
    ['Use `pnpm`, not npm or yarn.', ['pnpm', 'not npm', 'not yarn']],
    ['Run scripts with `npm run build`.', ['npm']],
    ['Use pnpm for workspaces and npm for scripts.', ['workspace:pnpm', 'script:npm']],
    ['We use yarn.', ['yarn']],
    ['pnpm, yarn and npm all read package.json.', []],
    ['This project uses yarn.', ['yarn']],
    ['Users install it with `npm install acme`.', []],
    ['The package is published to npm.', []],
    ['npm packages are listed in the lockfile.', []],
    ['For details, e.g. `npm ci`, see the docs.', []],
    ['If pnpm is not installed, run `npm i -g pnpm`.', []],
    ['`lazy.ts` runs `npm install @napi-rs/keyring` on first use.', []],
    ['pnpm and yarn both read package.json.', []],
    ['Bun is fast.', []],
  ],
  'test-command': [
    ['Run `pnpm test` before committing.', ['pnpm test']],
    ['`pnpm -F @acme/api test` runs the API suite.', ['pnpm test']],
    ['Run `npm run test:unit`.', ['npm test']],
    ['Run `cargo nextest run -p ruff`.', ['cargo nextest run']],
    ['Do not run `npm test` directly.', ['not npm test']],
    ['Run `pnpm install` before the tests.', []],
    ['`vitest` is kept external.', []],
    ['Run tests with `vitest`.', ['vitest']],
    ['`uv run pytest tests/x.py -k name`', ['uv run pytest']],
    ['`make test && make lint`', ['make test']],
  ],
  'lint-command': [['Lint with `cargo clippy --all-targets`.', ['cargo clippy']], ['Run `ruff check .`', ['ruff check']], ['Run `pnpm test`.', []]],
  'format-command': [['Format with `cargo fmt`.', ['cargo fmt']], ['`prettier --write .`', ['prettier']], ['`ruff format`', ['ruff format']]],
  'build-command': [['Build with `zig build`.', ['zig build']], ['`zig build test`', []], ['Build the docs with `make docs`.', []]],
  indentation: [
    ['Prettier owns formatting (2 spaces, double quotes).', ['2-spaces']],
    ['Indentation: tabs, never spaces.', ['tabs']],
    ['Indent YAML with two spaces.', ['yaml:2-spaces']],
    ['Do not indent with tabs.', ['not tabs']],
    ['Put 2 spaces after a period.', []],
    ['Open it in a new tab.', []],
  ],
  'quote-style': [['Use single quotes for strings.', ['single']], ['Prettier: double quotes.', ['double']], ['Wrap the title in double quotes.', []]],
  semicolons: [['Always use semicolons.', ['semicolons']], ['No semicolons.', ['not semicolons']], ['Prettier with `semi: false`.', ['not semicolons']], ['Set semi: false in Prettier.', ['not semicolons']]],
  'runtime-version': [
    ['Node 20 LTS.', ['node:node@20']],
    ['Requires Node.js >= 18.', ['node:node@>=18']],
    ['Use Python 3.12+.', ['python:python@>=3.12']],
    ['Supports Python 3.9 to 3.13.', []],
    ['Python 3.9 - 3.13 are tested.', []],
    ['Go 1.22 is the toolchain.', ['go:go@1.22']],
    ['Go 2 directories up.', []],
    ['Use React 19.', []],
  ],
  'commit-convention': [
    ['Commits follow Conventional Commits.', ['conventional']],
    ['Commit messages look like `feat(api): add x`.', ['conventional']],
    ['PR titles follow Conventional Commits.', ['pr-title:conventional']],
    ['Do not use Conventional Commits prefixes in commits.', ['not conventional']],
    ['Commit messages start with a gitmoji.', ['gitmoji']],
    ['See the Conventional Commits spec for background.', []],
  ],
  'branch-policy': [
    ['Never push directly to main.', ['main:not direct-to-main']],
    ['Push directly to main when the tests pass.', ['main:direct-to-main']],
    ['Never run `git push`; a human pushes.', ['not push']],
    ['Push your branch when the checks pass.', ['push']],
    ['Do not force-push shared branches.', ['force:not force-push']],
    ['GitHub Apps push branches straight into this repository.', []],
    ['CI pushes to main nightly.', []],
    ['Always merge via a pull request.', ['main:not direct-to-main']],
  ],
  'protected-paths': [
    ['Do not edit `src/generated/`; run `make gen`.', ['not src/generated']],
    ['`schema.ts` is generated.', ['not schema.ts']],
    ['Edit `src/routes/orders.ts` to add a route.', ['src/routes/orders.ts']],
    ['Files in `migrations/` must not be edited.', ['not migrations']],
    ['See `docs/x.md` for details.', []],
  ],
  directive: [
    ['Never log request bodies or authorization headers.', ['not log request body authorization header']],
    ['Log the full request body at debug level.', ['log request body debug level']],
    ['Always run the linter before committing.', ['run linter before commit']],
    ['This is a monorepo.', []],
    ['Never use `any`.', []],
  ],
};

describe.each(Object.keys(TABLE))('topic %s', (topic) => {
  it.each((TABLE[topic] ?? []).map(([line, want]) => [line, want] as const))('%s', (line, want) => {
    expect(run(topic, line)).toEqual(want);
  });
});

describe('topic registry', () => {
  it('has unique names, a description each, and the directive fallback last', () => {
    const names = TOPICS.map((t) => t.topic);
    expect(new Set(names).size).toBe(names.length);
    expect(TOPICS.every((t) => t.description.length > 10)).toBe(true);
    expect(TOPICS.filter((t) => t.fallback).map((t) => t.topic)).toEqual(['directive']);
    expect(names[names.length - 1]).toBe('directive');
  });
  it('covers the topics the issue names', () => {
    expect(TOPICS.map((t) => t.topic).sort()).toEqual(['branch-policy', 'build-command', 'commit-convention', 'directive', 'format-command', 'indentation',
      'lint-command', 'package-manager', 'protected-paths', 'quote-style', 'runtime-version', 'semicolons', 'test-command']);
  });
});

describe('comparators', () => {
  it.each<[string, string | null]>([
    ['pnpm -F @acme/api test', 'pnpm test'], ['npm run test -- --watch', 'npm test'], ['npx vitest run src', 'vitest run'],
    ['FOO=1 cargo test -p x', 'cargo test'], ['echo hi', null], ['npm test -w pkg', 'npm test'], ['./gradlew test', './gradlew test'],
  ])('normaliseCommand(%j) = %j', (raw, want) => expect(normaliseCommand(raw)).toBe(want));
  it.each<[string, string, boolean]>([
    ['node@20', 'node@20', true], ['node@20', 'node@18', false], ['node@>=18', 'node@20', true], ['node@>=22', 'node@20', false],
    ['python@3', 'python@3.12', true], ['python@3.10', 'python@3.12', false], ['node@>=18', 'node@>=20', true],
  ])('versionsCompatible(%s, %s) = %s', (a, b, want) => expect(versionsCompatible(a, b)).toBe(want));
  it.each<[string, string, boolean]>([
    ['log request body authorization header', 'log request body debug level', true], ['run test suite locally', 'run linter before commit', false],
    ['use any', 'use any', true], ['use any', 'use any test', false], ['commit secret', 'push secret', false],
  ])('sameSubject(%s, %s) = %s', (a, b, want) => expect(sameSubject(a, b)).toBe(want));
  it.each<[string, string, boolean]>([
    ['src/generated', 'src/generated/schema.ts', true], ['src/gen', 'src/generated', false], ['a.ts', 'a.ts', true],
  ])('pathsOverlap(%s, %s) = %s', (a, b, want) => expect(pathsOverlap(a, b)).toBe(want));
});
