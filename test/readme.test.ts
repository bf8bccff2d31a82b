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

  it('quotes golden outputs as they are: each example naming a test/**/expected file is a trimmed copy of it', () => {
    const text = readFileSync(README, 'utf8');
    // A paragraph that names a golden file, then the code block under it.
    const quoted = [...text.matchAll(/`(test\/[\w/.-]*\/expected\/[\w/.-]+)`[^`]*?(?:`[^`\n]*`[^`]*?)*\n```[a-z]*\n([\s\S]*?)\n```/g)];
    expect(quoted.length).toBeGreaterThanOrEqual(8);
    for (const [, file, block] of quoted) {
      const golden = readFileSync(join(import.meta.dirname, '..', file as string), 'utf8').split('\n');
      // The command line and the `…` that marks a cut are the README's own; every other line is the golden's, in order.
      let at = 0;
      for (const line of (block as string).split('\n').filter((l) => !l.startsWith('$ ') && l.trim() !== '…')) {
        const found = golden.indexOf(line, at);
        expect(found, `README quotes a line ${file} does not have (after line ${at}): ${line}`).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    }
  });

  it.each(['build', 'lint', 'explain', 'explain-code', 'diff', 'check'])('documents `rulec %s` with an example', (cmd) => {
    const text = readFileSync(README, 'utf8');
    expect(text).toContain(`### \`rulec ${cmd}`);
    expect(text).toContain(`$ rulec ${cmd}`);
  });
});
