/**
 * Rule identity: a source's rules are its sections.
 *
 * 1. The text before the first heading and a lone top-level title section form
 *    one "top" rule; its id is the frontmatter `id`, or `_top`.
 * 2. Every other section is a rule whose id is its heading path below the
 *    title, slugged and joined with `/` (`setup/node`), prefixed with the
 *    frontmatter `id` when there is one.
 * 3. A marker `<!-- rule: some-id -->` on the lines just before a heading names
 *    that section explicitly and wins over the derived id.
 * 4. Ids never depend on position: two sections with the same path are told
 *    apart by occurrence (`~2`), which only changes when a same-named section
 *    is added before them.
 */
import type { ParsedDoc } from '../types.js';
import { headingOf, scanLines } from '../parse/markdown-scan.js';
import { statementsOf, type Statement } from './statements.js';

export interface Rule {
  id: string;
  /** True when the id came from a marker or the frontmatter. */
  explicit: boolean;
  /** Heading path as written, [] for the top rule. */
  headingPath: string[];
  /** First line of the rule in the file (heading line or body start). */
  line: number;
  /** Last line of the rule's own text (before the next heading). */
  endLine: number;
  statements: Statement[];
}

const MARKER = /^\s*<!--\s*rule:\s*([A-Za-z0-9][\w.:-]*)\s*-->\s*$/;

export function slugify(s: string): string {
  const slug = s.normalize('NFKD').toLowerCase().replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '').slice(0, 48).replace(/-+$/, '');
  return slug === '' ? 'section' : slug;
}

interface RawSection {
  heading: { level: number; text: string } | null;
  path: string[];
  line: number;
  marker: string | null;
  lines: { line: number; text: string; inFence: boolean }[];
}

export function rulesOf(doc: ParsedDoc): Rule[] {
  const raw = splitSections(doc);
  const fmId = typeof doc.frontmatter?.id === 'string' && doc.frontmatter.id.trim() !== '' ? doc.frontmatter.id.trim() : null;
  const h1 = raw.filter((s) => s.heading?.level === 1);
  const firstHeading = raw.find((s) => s.heading !== null);
  // A single H1 that opens the document is its title, not a rule of its own.
  const title = h1.length === 1 && firstHeading === h1[0] ? h1[0] : null;
  const merged: RawSection[] = [];
  for (const s of raw) {
    const prev = merged[merged.length - 1];
    if (s === title && prev && prev.heading === null) {
      prev.lines.push(...s.lines);
      prev.marker = prev.marker ?? s.marker;
      continue;
    }
    merged.push(s);
  }
  const seen = new Map<string, number>();
  return merged.map((s) => {
    const isTop = s.heading === null || s === title;
    const rel = title ? s.path.slice(1) : s.path;
    const derived = isTop ? (fmId ?? '_top') : (fmId ? `${fmId}/` : '') + rel.map(slugify).join('/');
    const base = s.marker ?? derived;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const id = n === 1 ? base : `${base}~${n}`;
    const lines = s.lines;
    return {
      id,
      explicit: s.marker !== null || (isTop && fmId !== null),
      headingPath: isTop ? [] : s.path,
      line: s.line,
      endLine: lines.length > 0 ? (lines[lines.length - 1]?.line ?? s.line) : s.line,
      statements: statementsOf(lines.filter((l) => !l.inFence)),
    };
  });
}

function splitSections(doc: ParsedDoc): RawSection[] {
  const out: RawSection[] = [{ heading: null, path: [], line: doc.bodyLine, marker: null, lines: [] }];
  const stack: { level: number; text: string }[] = [];
  let pendingMarker: string | null = null;
  for (const l of scanLines(doc.body, doc.bodyLine)) {
    const cur = out[out.length - 1] as RawSection;
    if (l.inFence) {
      cur.lines.push(l);
      pendingMarker = null;
      continue;
    }
    const m = MARKER.exec(l.text);
    if (m?.[1]) {
      pendingMarker = m[1];
      continue;
    }
    const h = headingOf(l.text);
    if (!h) {
      if (l.text.trim() !== '') pendingMarker = null;
      cur.lines.push(l);
      continue;
    }
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= h.level) stack.pop();
    stack.push(h);
    out.push({ heading: h, path: stack.map((s) => s.text), line: l.line, marker: pendingMarker, lines: [] });
    pendingMarker = null;
  }
  // Drop an empty preamble so a file that starts with a heading has no phantom rule.
  if (out.length > 1 && (out[0] as RawSection).lines.every((l) => l.text.trim() === '')) out.shift();
  return out;
}
