/**
 * The provenance fence and its escaping.
 *
 * Every source is rendered as
 *
 *     <rulec-source path="packages/api/AGENTS.md" layer="path" sha256="…">
 *     …the source's text…
 *     </rulec-source>
 *
 * followed by one blank line. Attribute values are XML-escaped. Inside the
 * text, every `<` that is followed by optional backslashes, an optional `/`
 * and `rulec-` (any letter case) gets one more backslash after it, so the
 * rendered text never contains `<rulec-` or `</rulec-` except in rulec's own
 * fence lines. The escape is reversible: unescaping removes one backslash.
 */

const FENCE_LIKE = /<(\\*)(\/?rulec-)/gi;
const ESCAPED = /<\\(\\*)(\/?rulec-)/gi;

export function escapeFences(text: string): string {
  return text.replace(FENCE_LIKE, '<\\$1$2');
}

export function unescapeFences(text: string): string {
  return text.replace(ESCAPED, '<$1$2');
}

export function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '&#10;');
}

export function unescapeAttr(value: string): string {
  return value.replace(/&#10;/g, '\n').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

export interface FenceAttrs {
  path: string;
  layer: string;
  sha256: string;
  importedBy?: string;
}

/** One block: starts with `<`, ends with a blank line, so token counts of blocks add up. */
export function renderBlock(attrs: FenceAttrs, body: string): string {
  const imported = attrs.importedBy === undefined ? '' : ` imported-by="${escapeAttr(attrs.importedBy)}"`;
  const open = `<rulec-source path="${escapeAttr(attrs.path)}" layer="${escapeAttr(attrs.layer)}" sha256="${escapeAttr(attrs.sha256)}"${imported}>\n`;
  const text = escapeFences(body);
  const content = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `${open}${content}</rulec-source>\n\n`;
}

export interface ParsedBlock extends FenceAttrs {
  body: string;
}

const BLOCK = /<rulec-source path="([^"]*)" layer="([^"]*)" sha256="([^"]*)"(?: imported-by="([^"]*)")?>\n([\s\S]*?)<\/rulec-source>\n\n/g;

/**
 * Split rendered text back into blocks (used by tests and by runtimes that want
 * provenance). Returns null unless the text is exactly a sequence of blocks as
 * renderBlock renders them.
 */
export function parseBlocks(rendered: string): ParsedBlock[] | null {
  const out: ParsedBlock[] = [];
  let consumed = 0;
  for (const m of rendered.matchAll(BLOCK)) {
    if (m.index !== consumed) return null;
    consumed += m[0].length;
    const block: ParsedBlock = {
      path: unescapeAttr(m[1] ?? ''),
      layer: unescapeAttr(m[2] ?? ''),
      sha256: unescapeAttr(m[3] ?? ''),
      body: unescapeFences(m[5] ?? ''),
    };
    if (m[4] !== undefined) block.importedBy = unescapeAttr(m[4]);
    // Only text renderBlock could have produced is a block: a raw `<`, `>` or
    // newline in an attribute, an unescaped fence in a body, or a body without
    // its final newline would otherwise be accepted and read back differently.
    if (renderBlock(block, block.body) !== m[0]) return null;
    out.push(block);
  }
  return consumed === rendered.length ? out : null;
}
