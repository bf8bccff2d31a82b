// Module resolve hook for check-process.test.ts: append every resolved module URL to the
// file named by RULEC_TRACE_FILE, so a test can see what a spawned rulec loaded.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (process.env.RULEC_TRACE_FILE) appendFileSync(process.env.RULEC_TRACE_FILE, `${r.url}\n`);
  return r;
}
