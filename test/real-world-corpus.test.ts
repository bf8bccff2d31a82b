/**
 * The instruction files of 11 public repositories, rebuilt as skeleton repos
 * (every tracked path, real instruction files): rulec must build each without
 * a crash or an error, and its findings must be ones a maintainer would
 * accept. The reviewed findings are listed inline, so a new false alarm fails.
 * Skips cleanly when ../shared/real-world-corpus is absent.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { openBundle } from '../src/bundle/open-bundle.js';
import { writeBundle } from '../src/emit/write-bundle.js';
import { CORPUS, corpusRepo } from './helpers/corpus.js';

const present = existsSync(join(CORPUS, 'rebuild.sh'));
const entries = present ? readdirSync(CORPUS).filter((d) => existsSync(join(CORPUS, d, 'SOURCE.json'))).sort() : [];
const scratch = mkdtempSync(join(tmpdir(), 'rulec-corpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Warnings reviewed by hand, per repository ("code file"). All are agent-profile
 * findings, and all are true of these inputs — none is a lint on the files:
 * - RC5503 (Claude Code skips a file rulec loads): Claude reads AGENTS.md only when
 *   no CLAUDE.md is on the path. workers-sdk, sentry and pydantic-ai keep nested
 *   AGENTS.md files beside a root CLAUDE.md, so Claude never sees them (pydantic-ai
 *   symlinks CLAUDE.md to AGENTS.md in 10 directories, not all). In this corpus
 *   copy the root CLAUDE.md symlinks of ghostty, biome and knip are stored as
 *   regular files holding the link text, so Claude gets that text, not AGENTS.md.
 *   (With a real symlink the text is the same and rulec reports nothing.)
 * - RC5502 (a budget cuts a file): Codex's 32 KiB project-doc budget.
 * Lint findings (RC6xxx), schema and structure findings: none.
 */
const REVIEWED: Record<string, string[]> = {
  'biomejs__biome': [
    'RC5503 AGENTS.md'
  ],
  'cloudflare__workers-sdk': [
    'RC5503 AGENTS.md',
    'RC5503 packages/auto-triage-bot/AGENTS.md',
    'RC5503 packages/create-cloudflare/AGENTS.md',
    'RC5503 packages/miniflare/AGENTS.md',
    'RC5503 packages/vite-plugin-cloudflare/AGENTS.md',
    'RC5503 packages/vitest-plugin/AGENTS.md',
    'RC5503 packages/workers-auth/AGENTS.md',
    'RC5503 packages/workers-utils/AGENTS.md',
    'RC5503 packages/wrangler/AGENTS.md'
  ],
  'getsentry__sentry-javascript': [
    'RC5503 AGENTS.md',
    'RC5503 packages/browser/AGENTS.md',
    'RC5503 packages/nextjs/AGENTS.md'
  ],
  'ghostty-org__ghostty': [
    'RC5503 AGENTS.md',
    'RC5503 example/AGENTS.md',
    'RC5503 macos/AGENTS.md',
    'RC5503 src/benchmark/AGENTS.md',
    'RC5503 src/inspector/AGENTS.md',
    'RC5503 src/terminal/apc/glyph/AGENTS.md',
    'RC5503 src/terminal/c/AGENTS.md',
    'RC5503 src/terminal/compress/AGENTS.md',
    'RC5503 src/terminal/snapshot/AGENTS.md',
    'RC5503 test/fuzz-libghostty/AGENTS.md'
  ],
  'pydantic__pydantic-ai': [
    'RC5503 .github/workflows/AGENTS.md',
    'RC5503 AGENTS.md',
    'RC5503 docs/AGENTS.md',
    'RC5503 docs/realtime/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/capabilities/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/durable_exec/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/models/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/native_tools/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/profiles/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/providers/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/realtime/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/toolsets/AGENTS.md',
    'RC5503 pydantic_ai_slim/pydantic_ai/ui/AGENTS.md',
    'RC5502 tests/AGENTS.md',
    'RC5503 tests/AGENTS.md'
  ],
  'webpro-nl__knip': [
    'RC5503 AGENTS.md'
  ]
};

describe.skipIf(!present)('real-world corpus', () => {
  it.each(entries)('%s builds without a crash or an error', async (entry) => {
    const repo = corpusRepo(entry);
    const result = await compile({ repoDir: repo, outDir: join(scratch, `${entry}-out`) });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => `${d.code} ${d.file}:${d.range.start.line}: ${d.message}`)).toEqual([]);
    const findings = result.diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.code} ${d.file}`);
    expect(findings).toEqual(REVIEWED[entry] ?? []);
    // Every instruction file the corpus lists (of the formats rulec reads) is in the bundle, and the bundle verifies.
    const source = JSON.parse(readFileSync(join(CORPUS, entry, 'SOURCE.json'), 'utf8')) as { files: { path: string; kind: string }[] };
    const listed = source.files.filter((f) => f.kind !== 'import' && f.kind !== 'symlink-target' && !/^\.cursor\/rules\/.*\.md$/.test(f.path)).map((f) => f.path);
    const dir = writeBundle(join(scratch, `${entry}-out`), result);
    const opened = openBundle(dir, { expectDigest: result.digest });
    expect(listed.filter((p) => !(p in (opened.manifest.files as Record<string, unknown>)))).toEqual([]);
    expect(listed.length).toBeGreaterThan(0);
  });
});
