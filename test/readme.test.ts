/**
 * The README stays true: its table of diagnostic codes is the catalogue
 * (UPDATE_GOLDEN=1 rewrites it), and every CLI command is documented.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCatalogueEntries } from '../src/diagnostics/catalogue.js';

const README = join(import.meta.dirname, '..', 'README.md');
const START = '<!-- codes:start -->';
const END = '<!-- codes:end -->';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/</g, '&lt;');

function codesTable(): string {
  const rows = allCatalogueEntries().map((e) => `| ${e.code} | ${e.severity} | ${cell(e.title)} | ${cell(e.hint ?? '')} |`);
  return ['| code | default | what | hint |', '|---|---|---|---|', ...rows].join('\n');
}

describe('README', () => {
  it('lists every diagnostic code of the catalogue', () => {
    const text = readFileSync(README, 'utf8');
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    expect(start).toBeGreaterThan(0);
    const block = `${START}\n${codesTable()}\n${END}`;
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(README, text.slice(0, start) + block + text.slice(end + END.length));
    else expect(text.slice(start, end + END.length), 'README code table is stale: UPDATE_GOLDEN=1 npx vitest run test/readme.test.ts').toBe(block);
  });

  it.each(['build', 'lint', 'explain', 'explain-code', 'diff', 'check'])('documents `rulec %s` with an example', (cmd) => {
    const text = readFileSync(README, 'utf8');
    expect(text).toContain(`### \`rulec ${cmd}`);
    expect(text).toContain(`$ rulec ${cmd}`);
  });
});
