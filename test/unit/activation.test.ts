import { describe, expect, it } from 'vitest';
import { activationOf, globList, normaliseGlob, splitGlobs, type ActivationInfo } from '../../src/resolve/activation.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { FormatName, Layer, ParsedDoc, SourceFile, Span } from '../../src/types.js';

describe('splitGlobs', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['*.ts', ['*.ts']],
    ['a,b', ['a', 'b']],
    [' a , b ', ['a', 'b']],
    ['a,,b,', ['a', 'b']],
    ['**/*.{ts,tsx}', ['**/*.{ts,tsx}']],
    ['{src,lib}/**/*.ts, docs/*.md', ['{src,lib}/**/*.ts', 'docs/*.md']],
    ['[a,b].ts, x', ['[a,b].ts', 'x']],
    ['{a,{b,c}},d', ['{a,{b,c}}', 'd']],
    ['src/[{,]x,y', ['src/[{,]x', 'y']],
    ['[{]a,b', ['[{]a', 'b']],
    ['{a,[b,c]},d', ['{a,[b,c]}', 'd']],
    ['a[,b', ['a[,b']],
    ['}a,b', ['}a', 'b']],
    ['\u{1F600}.md,é.md', ['\u{1F600}.md', 'é.md']],
  ])('%j → %j', (input, expected) => {
    expect(splitGlobs(input)).toEqual(expected);
  });
});

describe('globList', () => {
  it.each<[string, unknown, string[] | null]>([
    ['undefined', undefined, []],
    ['null', null, []],
    ['empty string', '', []],
    ['a string', 'src/**', ['src/**']],
    ['a comma string', 'a/*.ts, b/*.ts', ['a/*.ts', 'b/*.ts']],
    ['a list', ['a/**', 'b/*.{ts,tsx}'], ['a/**', 'b/*.{ts,tsx}']],
    ['a list of comma strings', ['a,b', 'c'], ['a', 'b', 'c']],
    ['an empty list', [], []],
    ['a number', 42, null],
    ['a boolean', true, null],
    ['a mapping', { a: 1 }, null],
    ['a list with a number', ['a', 1], null],
    ['a list with null', ['a', null], null],
    ['a nested list', [['a']], null],
  ])('%s', (_name, value, expected) => {
    expect(globList(value)).toEqual(expected);
  });
});

describe('normaliseGlob', () => {
  it.each<[string, 'root' | 'anywhere', string, string]>([
    ['*.ts', 'anywhere', '', '**/*.ts'],
    ['README.md', 'anywhere', '', '**/README.md'],
    ['src/*.ts', 'anywhere', '', 'src/*.ts'],
    ['**/*.ts', 'anywhere', '', '**/*.ts'],
    ['**', 'anywhere', '', '**'],
    ['./*.ts', 'anywhere', '', '**/*.ts'],
    ['*.ts', 'anywhere', 'web', 'web/**/*.ts'],
    ['src/*.ts', 'anywhere', 'web', 'web/src/*.ts'],
    ['*.ts', 'root', '', '*.ts'],
    ['src/**', 'root', '', 'src/**'],
    ['./src/**', 'root', '', 'src/**'],
    ['/src/**', 'root', '', 'src/**'],
    ['src\\app\\*.ts', 'root', '', 'src/app/*.ts'],
    ['.\\src\\*.ts', 'root', '', 'src/*.ts'],
    ['x/*.md', 'root', 'packages/api', 'packages/api/x/*.md'],
    ['.github/**', 'root', '', '.github/**'],
  ])('%j (%s, scope %j) → %j', (glob, dialect, scope, expected) => {
    expect(normaliseGlob(glob, dialect, scope)).toBe(expected);
  });
});

function source(id: string, format: FormatName, scope = '', layer: Layer = 'repo'): SourceFile {
  return { id, rel: id, root: 'repo', format, layer, scope, bytes: Buffer.from(''), tracked: true };
}

const KEY_SPAN: Span = { start: { line: 2, col: 1 }, end: { line: 2, col: 6 } };

function doc(id: string, frontmatter: Record<string, unknown> | null): ParsedDoc {
  const keys: Record<string, Span> = {};
  for (const k of Object.keys(frontmatter ?? {})) keys[k] = KEY_SPAN;
  return { id, text: '', body: '', bodyLine: 1, frontmatter, frontmatterKeys: keys, imports: [] };
}

const info = (activation: ActivationInfo['activation'], layer: Layer, globs: string[] = [], rawGlobs: string[] = []): ActivationInfo => ({ activation, layer, globs, rawGlobs });

// A glob value of the wrong type attaches nowhere; checkFrontmatter reports it (RC4002).
describe('activationOf', () => {
  const CURSOR = '.cursor/rules/ts.mdc';
  const NESTED_CURSOR = 'web/.cursor/rules/ts.mdc';
  const COPILOT = '.github/instructions/ts.instructions.md';
  const RULE = '.claude/rules/ts.md';
  const LOCAL_RULE = '.claude/rules/ts.local.md';

  it.each<[string, SourceFile, Record<string, unknown> | null, { value: ActivationInfo; diagnostics: Diagnostic[] }]>([
    // Cursor rules
    ['cursor alwaysApply', source(CURSOR, 'cursor-rule'), { alwaysApply: true }, { value: info('standing', 'repo'), diagnostics: [] }],
    ['cursor alwaysApply wins over globs', source(CURSOR, 'cursor-rule'), { alwaysApply: true, globs: '*.ts' }, { value: info('standing', 'repo'), diagnostics: [] }],
    ['cursor alwaysApply as a string is not true', source(CURSOR, 'cursor-rule'), { alwaysApply: 'true' }, { value: info('manual', 'repo'), diagnostics: [] }],
    ['cursor globs', source(CURSOR, 'cursor-rule'), { globs: '*.ts, src/*.tsx', alwaysApply: false }, { value: info('attached', 'path', ['**/*.ts', 'src/*.tsx'], ['*.ts', 'src/*.tsx']), diagnostics: [] }],
    ['cursor globs list', source(CURSOR, 'cursor-rule'), { globs: ['*.ts', '**/*.md'] }, { value: info('attached', 'path', ['**/*.ts', '**/*.md'], ['*.ts', '**/*.md']), diagnostics: [] }],
    ['cursor globs win over description', source(CURSOR, 'cursor-rule'), { globs: '*.ts', description: 'TS' }, { value: info('attached', 'path', ['**/*.ts'], ['*.ts']), diagnostics: [] }],
    ['nested cursor globs are scoped', source(NESTED_CURSOR, 'cursor-rule', 'web'), { globs: '*.ts' }, { value: info('attached', 'path', ['web/**/*.ts'], ['*.ts']), diagnostics: [] }],
    ['cursor description', source(CURSOR, 'cursor-rule'), { description: 'TypeScript style' }, { value: info('requested', 'repo'), diagnostics: [] }],
    ['cursor blank description', source(CURSOR, 'cursor-rule'), { description: '  ' }, { value: info('manual', 'repo'), diagnostics: [] }],
    ['cursor empty globs', source(CURSOR, 'cursor-rule'), { globs: '', description: 'x' }, { value: info('requested', 'repo'), diagnostics: [] }],
    ['cursor null globs', source(CURSOR, 'cursor-rule'), { globs: null }, { value: info('manual', 'repo'), diagnostics: [] }],
    ['cursor none', source(CURSOR, 'cursor-rule'), null, { value: info('manual', 'repo'), diagnostics: [] }],
    ['cursor bad globs', source(CURSOR, 'cursor-rule'), { globs: 42, description: 'd' }, { value: info('requested', 'repo'), diagnostics: [] }],
    // Copilot instructions
    ['copilot applyTo', source(COPILOT, 'copilot-instructions'), { applyTo: '**/*.ts' }, { value: info('attached', 'path', ['**/*.ts'], ['**/*.ts']), diagnostics: [] }],
    ['copilot applyTo is root-relative', source(COPILOT, 'copilot-instructions'), { applyTo: '*.ts,./docs/**' }, { value: info('attached', 'path', ['*.ts', 'docs/**'], ['*.ts', './docs/**']), diagnostics: [] }],
    ['copilot none', source(COPILOT, 'copilot-instructions'), {}, { value: info('manual', 'repo'), diagnostics: [] }],
    ['copilot bad applyTo', source(COPILOT, 'copilot-instructions'), { applyTo: { a: 1 } }, { value: info('manual', 'repo'), diagnostics: [] }],
    // Claude rules
    ['claude rule paths', source(RULE, 'claude-rule'), { paths: ['src/**/*.ts', 'test/**'] }, { value: info('attached', 'path', ['src/**/*.ts', 'test/**'], ['src/**/*.ts', 'test/**']), diagnostics: [] }],
    ['claude rule paths are not prefixed by scope', source(`a/${RULE}`, 'claude-rule', 'a'), { paths: 'src/**' }, { value: info('attached', 'path', ['src/**'], ['src/**']), diagnostics: [] }],
    ['claude rule none', source(RULE, 'claude-rule'), null, { value: info('standing', 'repo'), diagnostics: [] }],
    ['claude rule empty paths', source(RULE, 'claude-rule'), { paths: [] }, { value: info('standing', 'repo'), diagnostics: [] }],
    ['claude rule globs key is not its key', source(RULE, 'claude-rule'), { globs: '*.ts' }, { value: info('standing', 'repo'), diagnostics: [] }],
    ['claude rule bad paths', source(RULE, 'claude-rule'), { paths: [1] }, { value: info('standing', 'repo'), diagnostics: [] }],
    ['local claude rule keeps its layer', source(LOCAL_RULE, 'claude-rule-local', '', 'local'), { paths: 'src/**' }, { value: info('attached', 'local', ['src/**'], ['src/**']), diagnostics: [] }],
    // Always standing, whatever the frontmatter says
    ['AGENTS.md', source('AGENTS.md', 'agents'), { globs: '*.ts', paths: 'x' }, { value: info('standing', 'repo'), diagnostics: [] }],
    ['nested CLAUDE.md', source('a/CLAUDE.md', 'claude', 'a', 'path'), null, { value: info('standing', 'path'), diagnostics: [] }],
    ['CLAUDE.local.md', source('CLAUDE.local.md', 'claude-local', '', 'local'), null, { value: info('standing', 'local'), diagnostics: [] }],
    ['managed policy', source('managed:base.md', 'managed', '', 'managed'), { paths: 'x' }, { value: info('standing', 'managed'), diagnostics: [] }],
    ['import', source('docs/x.md', 'import'), { paths: 'x' }, { value: info('import', 'repo'), diagnostics: [] }],
  ])('%s', (_name, file, frontmatter, expected) => {
    expect(activationOf(file, doc(file.id, frontmatter))).toEqual(expected);
  });
});
