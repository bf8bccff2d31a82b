/**
 * Hostile input shapes for the cost tests, each a function of a size n: a
 * monorepo whose files paste the same boilerplate, many glob rules, many
 * sections, long lines of a repeated token. Sizes are what doubles; the text
 * is deterministic.
 */
import type { Tree } from '../conflicts/tree.js';

export const BOILERPLATE = [
  'This area is owned by the platform team; ask in the team channel before changing shared contracts.',
  'Most changes in this directory need a matching update to the integration tests and the changelog.',
  'When in doubt, follow the existing patterns in neighbouring files rather than introducing a new style.',
];

/** n instruction files in n directories (50 packages, nested), each pasting the boilerplate, plus n glob rules. */
export function monorepo(n: number): { tree: Tree; paths: string[] } {
  const tree: Tree = {
    'AGENTS.md': `# Guide\n\n${BOILERPLATE.map((b) => `- ${b}`).join('\n')}\n\n## Setup\n\n- Use pnpm: \`pnpm install\`.\n- Run tests with \`pnpm test\`.\n`,
    'CLAUDE.md': `# Claude\n\n- ${BOILERPLATE[0]}\n- Never push directly to main.\n`,
  };
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const dir = `packages/p${i % 50}/m${i}`;
    tree[`${dir}/AGENTS.md`] = `# Module ${i}\n\n${BOILERPLATE.map((b) => `- ${b}`).join('\n')}\n\n## Notes\n\n- Module ${i} keeps its fixtures in \`test/fixtures\`.\n- Run \`pnpm --filter m${i} test\`.\n`;
    tree[`.claude/rules/r${i}.md`] = `---\npaths:\n  - "${dir}/**/*.ts"\n---\n\n# Rule ${i}\n\n- ${BOILERPLATE[1]}\n- Prefer named exports in module ${i}.\n`;
    paths.push(`${dir}/src/index.ts`, `${dir}/src/util.ts`, `${dir}/README.md`);
  }
  return { tree, paths };
}

/** A document of k sections, each with a heading, a paragraph and a few bullets. */
export function sections(k: number): string {
  const out = ['# Guide', ''];
  for (let i = 0; i < k; i++) {
    out.push(`## Section ${i}`, '', `Paragraph ${i} explains why the rules below exist, with \`code ${i}\` and a [link](https://example.com/${i}).`, '');
    out.push(`- Never log request body field${i}.`, `- Run \`pnpm test --filter s${i}\` before pushing.`, `- Keep **section ${i}** small.`, '');
  }
  return `${out.join('\n')}\n`;
}

/** `# T` and one line holding `token` repeated to about n code units. */
export function longLine(token: string, n: number): string {
  return `# T\n\nx ${token.repeat(Math.ceil(n / token.length))}\n`;
}

/** `# T` and about n code units of short lines, each `x ` and `token`. */
export function manyLines(token: string, n: number): string {
  return `# T\n\n${`x ${token}\n`.repeat(Math.ceil(n / (token.length + 3)))}`;
}

/** Markup that has made scanners quadratic: comment openers, unclosed tick runs, quotes, tables, `@`, emphasis, whitespace. */
export const MARKUP = ['<!-- ', '`` ` ', '> ', '| ', '@a/', '\t ', '** _', '[a](', 'e.g. ', ', but '];
/** Look-alikes of what the lint rules search for, none a finding on its own. */
export const LOOK_ALIKES = ['AKIA ', 'ghp_ ', 'sk- ', 'eyJa. ', 'token= ', 'rm -rf ', 'curl a | ', 'ignore previous ', '<|', '\u200b a ', 'https://u:@ '];

/**
 * The inputs every text stage is doubled on: each of the two worst single
 * tokens alone, and every token of a family in turn (`tokens.join('')`
 * repeated), as one long line and as many short lines.
 */
export function textShapes(families: Record<string, string[]>): [string, (n: number) => string][] {
  const out: [string, (n: number) => string][] = [];
  for (const [name, token] of [['comment openers', '<!-- '], ['unclosed tick runs', '`` ` ']] as const) {
    out.push([`long line of ${name}`, (n) => longLine(token, n)], [`many lines of ${name}`, (n) => manyLines(token, n)]);
  }
  for (const [name, tokens] of Object.entries(families)) {
    out.push([`long line of ${name}`, (n) => longLine(tokens.join(''), n)]);
    out.push([`many lines of ${name}`, (n) => `# T\n\n${Array.from({ length: Math.ceil(n / 8) }, (_, i) => `x ${tokens[i % tokens.length]}`).join('\n')}\n`]);
  }
  return out;
}
