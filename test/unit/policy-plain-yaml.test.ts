/**
 * A policy comes from pull requests: hostile input. It is plain mappings, lists and scalars;
 * anything else the yaml library can make is an invalid policy (RC4001) at its node, before
 * the value is built. (Values that contain themselves never end in process: they are tested
 * through the CLI, with a timeout, in test/cli-input.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { builtInPolicy } from '../../src/config/load-policy.js';
import { readPackageJson } from '../../src/config/package-files.js';
import { MAX_EXPANDED } from '../../src/config/plain-yaml.js';
import { validatePolicy } from '../../src/config/validate-policy.js';

const check = (text: string) => validatePolicy('.rulec/policy.yaml', text, builtInPolicy(), readPackageJson('schemas/policy.schema.json'));
const findings = (text: string): string[] => check(text).diagnostics.map((d) => `${d.range.start.line}:${d.range.start.col} ${d.code} ${d.message}`);
const list = (item: string, n: number): string => `[${Array<string>(n).fill(item).join(', ')}]`;
const PLAIN = 'a policy holds only plain mappings, lists and scalars';

describe('a policy is plain YAML data', () => {
  it.each<[string, string, string[]]>([
    ['an ordered map for budgets', 'version: 1\nbudgets: !!omap [{variant_tokens: 1}]\n', [`2:17 RC4001 budgets is tagged !!omap: ${PLAIN}`]],
    ['an ordered map for severity', 'version: 1\nseverity: !!omap [{RC6003: "off"}]\n', [`2:18 RC4001 severity is tagged !!omap: ${PLAIN}`]],
    ['an empty set for budgets', 'version: 1\nbudgets: !!set {}\n', [`2:16 RC4001 budgets is tagged !!set: ${PLAIN}`]],
    ['a set for profiles', 'version: 1\nprofiles: !!set {x}\n', [`2:17 RC4001 profiles is tagged !!set: ${PLAIN}`]],
    ['a set for discover', 'version: 1\ndiscover: !!set {x}\n', [`2:17 RC4001 discover is tagged !!set: ${PLAIN}`]],
    ['pairs', 'version: 1\ndiscover: {exclude: !!pairs [{a: b}]}\n', [`2:29 RC4001 discover.exclude is tagged !!pairs: ${PLAIN}`]],
    ['bytes', 'version: 1\nmanaged: {dir: !!binary aGVsbG8=}\n', [`2:25 RC4001 managed.dir is tagged !!binary: ${PLAIN}`]],
    ['a tag of its own', 'version: 1\ntokenizer: !mine o200k_base\n', [`2:18 RC4001 tokenizer is tagged !mine: ${PLAIN}`]],
    ['a YAML 1.1 date and merge key', '%YAML 1.1\n---\nversion: 1\nbudgets: {<<: {file_bytes: 1}}\nmanaged: {dir: 2020-01-01}\n', [
      `4:11 RC4001 budgets has a key that is a merge key (<<): ${PLAIN}`,
      `5:16 RC4001 managed.dir is a Date: ${PLAIN}`,
    ]],
    ['a list as a key', 'version: 1\nbudgets: {? [variant_tokens]: 1}\n', [`2:13 RC4001 budgets has a key that is not a plain scalar: ${PLAIN}`]],
    ['a set reached twice, named once', 'version: 1\nformats: &f !!set {agents}\nprofiles: *f\n', [`2:19 RC4001 formats is tagged !!set: ${PLAIN}`]],
  ])('%s is an invalid policy at its node', (_what, text, expected) => {
    expect(findings(text)).toEqual(expected);
    expect(check(text).value).toBeNull();
  });

  it('an alias bomb is an invalid policy at the alias written in the file that expands past the limit', () => {
    const text = `version: 1\na: &a ${list('x', 10)}\nb: &b ${list('*a', 10)}\nc: &c ${list('*b', 10)}\nd: ${list('*c', 10)}\n`;
    // b and c expand to 110 and 1,210 values, each *c in d to 1,221: the eighth takes the walk past 10,000.
    expect(findings(text)).toEqual([`5:33 RC4001 alias *c makes the policy more than ${MAX_EXPANDED} values once aliases are expanded`]);
  });

  it(`aliases are data like any other, up to ${MAX_EXPANDED} values`, () => {
    const ok = check('version: 1\ndiscover: {exclude: &x ["vendor/**"], walk_ignore: *x}\n');
    expect(ok.diagnostics).toEqual([]);
    expect(ok.value?.discover).toEqual({ exclude: ['vendor/**'], walk_ignore: ['vendor/**'], max_file_bytes: 4194304 });
    // l is 1 + 99 values: y expands to exactly MAX_EXPANDED, so z's one value is one too many.
    const at = `version: 1\nw: &w x\nl: &l ${list('x', 99)}\ny: ${list('*l', MAX_EXPANDED / 100)}\n`;
    expect(findings(at)).toEqual(['2:1 RC4001 unknown key "w"', '3:1 RC4001 unknown key "l"', '4:1 RC4001 unknown key "y"']);
    expect(findings(`${at}z: *w\n`)).toEqual([`5:4 RC4001 alias *w makes the policy more than ${MAX_EXPANDED} values once aliases are expanded`]);
  });
});
