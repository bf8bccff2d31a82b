/** RC4xxx/RC5xxx additions: frontmatter schemas, layer budgets (owned by the validation work). */
import type { CatalogueEntry } from './catalogue.js';

export const VALIDATE_CODES: CatalogueEntry[] = [
  { code: 'RC4004', severity: 'warning', title: 'enforce outside the managed layer',
    hint: 'remove enforce:, or move the rule to the managed directory',
    explanation: 'A file outside the managed layer sets enforce: true. Only managed files can enforce a rule (nothing below may override it); in a repository, path or local file the key has no effect, so the author may believe a rule is binding when it is not. Instruction files guide, they never grant.' },
  { code: 'RC4005', severity: 'info', title: 'Copilot key written as a list',
    explanation: 'A .github/instructions file gives applyTo as a YAML list of globs, or excludeAgent as a list of agents. GitHub documents applyTo as one string of globs separated by commas and excludeAgent as one value; some teams standardise on lists, and rulec reads both, but not every Copilot surface is documented to accept a list.' },
  { code: 'RC5004', severity: 'warning', title: 'layer over token budget',
    hint: 'trim or split the largest sources of that layer, or raise budgets.layer_tokens in the policy',
    explanation: 'Within a variant, the sources of one layer (managed, repo, path or local) together are larger than budgets.layer_tokens.<layer> in the policy. One finding is reported per layer and distinct set of sources, naming how many variants it affects and the largest contributors; the manifest records every affected variant.' },
];
