/**
 * HTML built only through the `html` tagged template: every interpolated
 * string or number is escaped (text and attribute safe: & < > " '), arrays are
 * joined, and only fragments that came out of `html` itself pass through
 * unescaped. A file name or rule text cannot reach the page any other way.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

function piece(v: HtmlValue): string {
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(piece).join('');
  if (v === null || v === undefined || v === false || v === true) return '';
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += piece(values[i] as HtmlValue) + (strings[i + 1] as string);
  return new SafeHtml(out);
}

/** For the page's own constant CSS and script only, never for data. */
export function trustedConstant(s: string): SafeHtml {
  return new SafeHtml(s);
}
