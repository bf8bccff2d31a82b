/**
 * "Bad input never crashes": for random bytes and random frontmatter in an
 * instruction file, compile() resolves (never rejects), and every diagnostic
 * carries a catalogued code, 1-based positions and a file of the build.
 * Small run counts: each run writes and compiles a tiny (non-git) temp repo.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { loadFrontmatterSchemas } from '../src/config/frontmatter-schemas.js';
import { findCatalogueEntry } from '../src/diagnostics/catalogue.js';
import type { Diagnostic } from '../src/diagnostics/diagnostic.js';
import { parseDoc } from '../src/parse/parse-doc.js';
import { checkFrontmatter } from '../src/validate/check-frontmatter.js';

/** Runs per property (10 by default; raise with NEVER_CRASH_RUNS to hunt locally). */
const RUNS = Number(process.env.NEVER_CRASH_RUNS ?? 10);

const PATHS = ['AGENTS.md', '.claude/rules/x.md', '.cursor/rules/x.mdc', '.github/instructions/x.instructions.md', 'GEMINI.md'] as const;

/** Write `files` into a fresh directory, compile it, and check the result's diagnostics. */
async function compilesCleanly(files: Record<string, Uint8Array | string>): Promise<void> {
  const repo = mkdtempSync(join(tmpdir(), 'rulec-never-'));
  try {
    writeFileSync(join(repo, 'package.json'), '{}\n');
    mkdirSync(join(repo, 'src'));
    writeFileSync(join(repo, 'src', 'a.ts'), 'x\n');
    for (const [path, bytes] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), bytes);
    }
    const result = await compile({ repoDir: repo, outDir: join(repo, 'bundles') });
    const schemas = loadFrontmatterSchemas();
    const frontmatter = result.discovered.files.flatMap((f) => checkFrontmatter(f, parseDoc(f).value, schemas));
    const ids = new Set(result.discovered.files.map((f) => f.id));
    for (const d of [...result.diagnostics, ...frontmatter]) expectWellFormed(d, ids);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

function expectWellFormed(d: Diagnostic, ids: ReadonlySet<string>): void {
  expect(findCatalogueEntry(d.code), `unknown code ${d.code}`).toBeDefined();
  expect(['error', 'warning', 'info']).toContain(d.severity);
  for (const p of [d.range.start, d.range.end]) {
    expect(Number.isInteger(p.line) && p.line >= 1, `${d.code} line ${p.line}`).toBe(true);
    expect(Number.isInteger(p.col) && p.col >= 1, `${d.code} col ${p.col}`).toBe(true);
  }
  // A finding names a file of this build, or no file; discovery-stage findings may name a file it refused to read.
  if (!d.code.startsWith('RC1')) expect(d.file === '' || ids.has(d.file), `${d.code} names ${d.file}`).toBe(true);
  expect(d.message.length).toBeGreaterThan(0);
}

const path = fc.constantFrom(...PATHS);

/** Bytes that often look like text with a header: `---` lines, YAML punctuation, CR, NUL, invalid UTF-8. */
const textish = fc.array(
  fc.oneof(
    fc.constantFrom('---\n', '---\r\n', '\n', '\r', ': ', '- ', '[', ']', '{', '}', '*', '&a ', '!!', '@', '# ', '\t', '"', "'", '\0', '\uFEFF', '\u202E', 'paths', 'globs', 'applyTo', 'alwaysApply'),
    fc.string({ maxLength: 12 }),
  ),
  { maxLength: 40 },
).map((parts) => parts.join(''));

const withHeader = (yaml: string, body: string): string => `---\n${yaml}${yaml.endsWith('\n') ? '' : '\n'}---\n${body}`;

/** YAML-ish text that is frequently malformed: unbalanced brackets, stray anchors and tags, bad indentation. */
const malformedYaml = fc.array(
  fc.oneof(
    fc.constantFrom('paths: ', 'globs: ', 'applyTo: ', 'alwaysApply: ', 'id: ', 'enforce: ', '\n', '\n  ', '\n\t', '- ', '[', ']', '{', '}', ', ', '*x', '&x ', '!!str ', '!<tag> ', '? ', '|', '>', '"', "'", '#', '%YAML 1.2\n', '...\n', '<<: '),
    fc.string({ maxLength: 6 }),
  ),
  { maxLength: 30 },
).map((parts) => parts.join(''));

describe('never crash: compile() on random input', () => {
  it('random bytes as an instruction file', async () => {
    await fc.assert(fc.asyncProperty(path, fc.uint8Array({ maxLength: 2048 }), async (p, bytes) => {
      await compilesCleanly({ [p]: bytes });
    }), { numRuns: RUNS });
  });

  it('random header-like text as an instruction file', async () => {
    await fc.assert(fc.asyncProperty(path, textish, async (p, text) => {
      await compilesCleanly({ [p]: text });
    }), { numRuns: RUNS });
  });

  it('random frontmatter objects, serialised with yaml', async () => {
    const key = fc.oneof(fc.constantFrom('paths', 'globs', 'applyTo', 'alwaysApply', 'description', 'excludeAgent', 'id', 'owner', 'enforce', 'expires'), fc.string({ maxLength: 8 }));
    const value = fc.oneof(fc.anything({ maxDepth: 2 }), fc.string(), fc.array(fc.string(), { maxLength: 3 }));
    await fc.assert(fc.asyncProperty(path, fc.dictionary(key, value, { maxKeys: 5 }), fc.object({ maxDepth: 2 }), async (p, known, other) => {
      await compilesCleanly({ [p]: withHeader(stringify({ ...other, ...known }), '# Rule\n\nBody.\n') });
    }), { numRuns: RUNS });
  });

  it('random malformed YAML frontmatter', async () => {
    await fc.assert(fc.asyncProperty(path, malformedYaml, async (p, yaml) => {
      await compilesCleanly({ [p]: withHeader(yaml, '# Rule\n\nBody.\n') });
    }), { numRuns: RUNS });
  });

  // Fixed probes for the parser's recursion: deep flow nesting and deep block nesting.
  it.each([
    ['5000 nested flow lists', `paths: ${'['.repeat(5000)}${']'.repeat(5000)}\n`],
    ['2000 nested block mappings', Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x\n'],
    ['an alias bomb', 'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n'],
  ])('%s', async (_name, yaml) => {
    await compilesCleanly({ '.claude/rules/deep.md': withHeader(yaml, '# Deep\n'), '.cursor/rules/deep.mdc': withHeader(yaml, '# Deep\n') });
  });
});
