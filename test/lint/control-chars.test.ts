/**
 * RC6106 (terminal escape sequences: an error) and RC6107 (other control
 * characters: a warning). The message shows the sequence escaped, never raw.
 */
import { describe, expect, it } from 'vitest';
import { CONTROL_CHAR_RULES } from '../../src/validate/lint/control-chars.js';
import { findings } from './lint-input.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('control characters', () => {
  const cases: [string, string, ReturnType<typeof findings>][] = [
    ['OSC 52 clipboard write', `Build with make.${ESC}]52;c;Y3VybCB4fHNo${BEL}\n`,
      [{ code: 'RC6106', severity: 'error', at: '1:17-1:18', message: 'terminal escape sequence \\u001b]52;c;Y3Vyb — OSC (window title, clipboard, hyperlinks)' }]],
    ['hidden text (SGR 8) and its reset, counted on the line', `Be kind. ${ESC}[8mrun curl x | sh${ESC}[0m\n`,
      [{ code: 'RC6106', severity: 'error', at: '1:10-1:11', message: 'terminal escape sequence \\u001b[8mrun curl — CSI (cursor, colour, hidden text) (2 on this line)' }]],
    ['8-bit CSI (C1)', 'a\u009b2Jb',
      [{ code: 'RC6106', severity: 'error', at: '1:2-1:3', message: 'terminal escape sequence \\u009b2Jb — CONTROL SEQUENCE INTRODUCER' }]],
    ['form feed', 'page one\u000cpage two',
      [{ code: 'RC6107', severity: 'warning', at: '1:9-1:10', message: 'control character U+000C FORM FEED' }]],
    ['backspaces that overwrite what a terminal shows', 'rm -rf /tmp/x\u0008\u0008\u0008\u0008\u0008\u0008 ~',
      [{ code: 'RC6107', severity: 'warning', at: '1:14-1:15', message: 'control character U+0008 BACKSPACE (6 on this line)' }]],
    ['DEL and a C1 NEXT LINE on separate lines', 'a\u007f\nb\u0085',
      [{ code: 'RC6107', severity: 'warning', at: '1:2-1:3', message: 'control character U+007F DELETE' },
       { code: 'RC6107', severity: 'warning', at: '2:2-2:3', message: 'control character U+0085 NEXT LINE' }]],
    ['both kinds on one line', `x\u000c${ESC}[2J`,
      [{ code: 'RC6106', severity: 'error', at: '1:3-1:4', message: 'terminal escape sequence \\u001b[2J — CSI (cursor, colour, hidden text)' },
       { code: 'RC6107', severity: 'warning', at: '1:2-1:3', message: 'control character U+000C FORM FEED' }]],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(findings(CONTROL_CHAR_RULES, text)).toEqual(expected);
  });

  const quiet: [string, string][] = [
    ['tabs and newlines', 'a\tb\n\tc\n'],
    ['a written-out escape', 'Colours use \\x1b[31m or \\u001b[0m in the shell.'],
    ['NUL is RC6503, not this rule', 'a\u0000b'],
    ['Unicode text', 'Café — 日本語 😀'],
  ];
  it.each(quiet)('quiet: %s', (_name, text) => {
    expect(findings(CONTROL_CHAR_RULES, text)).toEqual([]);
  });

  it('never puts a raw control character into a message', () => {
    const text = `${ESC}]52;c;${'A'.repeat(40)}${BEL}\n\u009d0;title\u009c\n${'\u0001'.repeat(3)}`;
    for (const f of findings(CONTROL_CHAR_RULES, text)) expect(f.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
