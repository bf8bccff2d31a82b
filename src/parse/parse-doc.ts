/**
 * Parse one source file into its canonical model.
 *
 * 1. Decode UTF-8 (invalid bytes become U+FFFD and a diagnostic), strip a BOM,
 *    normalise CRLF and lone CR to LF. Raw bytes stay on the SourceFile for hashing.
 * 2. Split a leading `---` … `---` block off as YAML frontmatter and parse it with
 *    positions; a bad header is reported and the body is still used.
 * 3. Scan the body for `@path` imports, skipping fenced code, inline code
 *    spans and HTML comments. (Headings are read where they are used: the
 *    conflict rules take their heading paths from the same scanner.)
 */
import { isUtf8 } from 'node:buffer';
import type { ImportRef, ParsedDoc, SourceFile, StageResult } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { formatSpec } from '../formats/formats.js';
import { parseFrontmatter } from './frontmatter.js';
import { maskInline, scanLines } from './markdown-scan.js';
import { IMPORT_TOKEN, importPath, leadOf } from './import-token.js';

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export function parseDoc(file: SourceFile): StageResult<ParsedDoc> {
  const diagnostics: Diagnostic[] = [];
  const invalidUtf8 = !isUtf8(file.bytes);
  let decoded = decoder.decode(file.bytes);
  const hadBom = decoded.charCodeAt(0) === 0xfeff;
  if (hadBom) decoded = decoded.slice(1);
  const hadCrlf = decoded.includes('\r');
  const text = hadCrlf ? decoded.replace(/\r\n?/g, '\n') : decoded;
  // Positioned in `text`, like every other diagnostic: after the BOM, with CR and CRLF as one line break.
  if (invalidUtf8) diagnostics.push(diag('RC2003', { file: file.id, range: firstInvalidSpan(text), message: 'file is not valid UTF-8; invalid bytes were replaced with U+FFFD' }));

  const fm = parseFrontmatter(file.id, text, formatSpec(file.format)?.lenientFrontmatter === true);
  diagnostics.push(...fm.diagnostics);
  const { body, bodyLine } = fm.value;
  const scanned = scanLines(body, bodyLine);
  const doc: ParsedDoc = {
    id: file.id,
    text,
    body,
    bodyLine,
    frontmatter: fm.value.data,
    frontmatterKeys: fm.value.keys,
    imports: importsOf(scanned),
  };
  return { value: doc, diagnostics };
}

function firstInvalidSpan(decoded: string) {
  const at = decoded.indexOf('\uFFFD');
  const before = decoded.slice(0, Math.max(0, at));
  const line = before.split('\n').length;
  const col = at - before.lastIndexOf('\n');
  return { start: { line, col }, end: { line, col: col + 1 } };
}


function importsOf(lines: ReturnType<typeof scanLines>): ImportRef[] {
  const imports: ImportRef[] = [];
  let commentOpen = false;
  for (const l of lines) {
    if (l.inFence) continue;
    // Masking is only needed on lines that could hold an import or carry a comment across.
    if (!commentOpen && !l.text.includes('@') && !l.text.includes('<!--')) continue;
    const masked = maskInline(l.text, commentOpen);
    commentOpen = masked.commentOpen;
    for (const m of masked.masked.matchAll(IMPORT_TOKEN)) {
      const written = m[1] ?? '';
      const col = (m.index ?? 0) + leadOf(m) + 1;
      imports.push({ target: importPath(written), span: { start: { line: l.line, col }, end: { line: l.line, col: col + 1 + written.length } } });
    }
  }
  return imports;
}
