/**
 * Preload (`node --import ./trace-loads.mjs`) that appends every module the
 * process loads — ESM through a loader hook, CommonJS through require — to the
 * file named by RULEC_TRACE_LOADS, one URL or path a line, in every thread.
 * Used by test/cli-process.test.ts to prove what start-up does not load.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.RULEC_TRACE_LOADS;
if (file) {
  register(`data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from 'node:fs';
    let file;
    export function initialize(data) { file = data.file; }
    export async function load(url, context, next) { appendFileSync(file, url + '\\n'); return next(url, context); }
  `)}`, { data: { file } });
  const Module = createRequire(import.meta.url)('node:module');
  const load = Module._load;
  Module._load = function traced(request, parent, isMain) {
    const exported = load.call(this, request, parent, isMain);
    try {
      appendFileSync(file, `${Module._resolveFilename(request, parent, isMain)}\n`);
    } catch {
      // a builtin or an unresolvable request: nothing to record
    }
    return exported;
  };
}
