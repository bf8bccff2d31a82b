/**
 * Every surface a compile result reaches a user or a runtime through: the
 * manifest, each context and attachment, the diagnostics as JSON and as text
 * with code frames, the explanation of every indexed directory. A marker found
 * in any of them (or in any file rulec read) is a leak.
 */
import { expect } from 'vitest';
import type { CompileResult } from '../../src/compile.js';
import { manifestBytes } from '../../src/bundle/model.js';
import { bundleFileMap } from '../../src/emit/write-bundle.js';
import { explainPath, formatExplanation } from '../../src/report/explain.js';
import { formatDiagnostics } from '../../src/report/text.js';

export function surfaces(result: CompileResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const [rel, text] of bundleFileMap(result)) out.set(`bundle:${rel}`, typeof text === 'string' ? text : Buffer.from(text).toString('utf8'));
  out.set('manifest', manifestBytes(result.manifest));
  out.set('diagnostics.json', JSON.stringify(result.diagnostics));
  const lines = (file: string): string[] | undefined => result.resolution.sources.get(file)?.doc.text.split('\n');
  out.set('diagnostics.txt', formatDiagnostics(result.diagnostics, lines));
  for (const dir of Object.keys(result.manifest.index as Record<string, string>)) {
    const e = explainPath(result.manifest, dir);
    out.set(`explain:${dir}`, `${JSON.stringify(e)}\n${formatExplanation(e, 'compiled')}`);
  }
  return out;
}

export function expectNoLeak(result: CompileResult, marker: string): void {
  for (const [where, text] of surfaces(result)) expect(text.includes(marker), `marker leaked into ${where}`).toBe(false);
  for (const f of result.discovered.files) {
    expect(Buffer.from(f.bytes).includes(marker), `rulec read ${f.id}, which holds outside bytes`).toBe(false);
  }
}

/** `[code, file]` of each diagnostic whose code starts with one of `prefixes`. */
export function codes(result: CompileResult, ...prefixes: string[]): [string, string][] {
  return result.diagnostics.filter((d) => prefixes.some((p) => d.code.startsWith(p))).map((d) => [d.code, d.file]);
}
