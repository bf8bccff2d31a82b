/**
 * Build a Resolution from an inline file tree, in memory: the same classify →
 * parse → resolve path compile() takes, minus the disk. Keys are repo paths,
 * or `managed:<rel>` for the managed layer. Personal formats (CLAUDE.local.md)
 * are local layer; files at the root are repo, below it path.
 */
import type { Layer, ParsedDoc, SourceFile } from '../../src/types.js';
import { classifyPath } from '../../src/formats/formats.js';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { resolve, type Resolution } from '../../src/resolve/resolve.js';
import type { Policy } from '../../src/config/policy.js';

export type Tree = Record<string, string>;

export function sourceFiles(tree: Tree): SourceFile[] {
  const files: SourceFile[] = [];
  for (const [path, text] of Object.entries(tree)) {
    const bytes = new TextEncoder().encode(text);
    if (path.startsWith('managed:')) {
      const rel = path.slice('managed:'.length);
      files.push({ id: path, rel, root: 'managed', format: 'managed', layer: 'managed', scope: '', bytes, tracked: true });
      continue;
    }
    const c = classifyPath(path);
    if (!c) continue;
    const layer: Layer = c.spec.personal ? 'local' : c.scope === '' ? 'repo' : 'path';
    files.push({ id: path, rel: path, root: 'repo', format: c.spec.name, layer, scope: c.scope, bytes, tracked: !c.spec.personal });
  }
  return files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function resolveTree(tree: Tree, extraPaths: string[] = []): Resolution {
  const files = sourceFiles(tree);
  const docs = new Map<string, ParsedDoc>(files.map((f) => [f.id, parseDoc(f).value]));
  const paths = [...new Set([...Object.keys(tree).filter((p) => !p.startsWith('managed:')), ...extraPaths, ...defaultPaths(tree)])].sort();
  return resolve({ files, docs, paths, imports: { roots: { repo: '/repo' }, maxDepth: 4 } }).value;
}

/** One source file next to every instruction file's directory, so each directory has a path. */
function defaultPaths(tree: Tree): string[] {
  return Object.keys(tree).filter((p) => !p.startsWith('managed:')).map((p) => {
    const c = classifyPath(p);
    return c ? `${c.scope === '' ? '' : `${c.scope}/`}src/index.ts` : p;
  });
}

export const POLICY = {
  version: 1, tokenizer: 'o200k_base',
  formats: { agents: true, claude: true, gemini: true, copilot: true, cursor: true },
  discover: { exclude: [], walk_ignore: [], max_file_bytes: 4194304 },
  imports: { max_depth: 4, max_files: 1000 }, managed: { dir: null },
  budgets: { variant_tokens: 16000, attachment_tokens: 8000, file_bytes: 65536, layer_tokens: {} },
  severity: {},
} as Policy;
