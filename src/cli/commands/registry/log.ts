/** `rulec registry log`: the audit log, one line per entry. */
import { parseAudit, type AuditEntry } from '../../../registry/audit.js';
import { EXIT } from '../../io.js';
import { json, short, STORE_HELP, STORE_OPTIONS, storeFrom, type Subcommand } from './common.js';
import { registryError } from '../../../registry/errors.js';

function describe(e: AuditEntry): string {
  if (e.kind === 'repair') return `repair     ${e.repair}`;
  const op = e.op;
  const what = op.op === 'revoke' ? `${short(op.digest)} ${op.severity}: ${op.reason}`
    : op.op === 'canary' ? `${op.channel} ${short(op.digest)} ${op.bps} bps salt ${op.salt}`
      : op.op === 'ramp' ? `${op.channel} ${short(op.digest)} ${op.bps} bps`
        : op.op === 'publish' ? `${op.channel} ${short(op.digest)} ${op.bundle_id} ${op.version}`
          : `${op.channel} ${short(op.digest)}`;
  return `${op.op.padEnd(10)} ${what}  (seq ${e.seq}, by ${op.actor}, signed ${e.by.map((k) => k.slice(0, 8)).join(',')})`;
}

export const LOG: Subcommand = {
  options: { ...STORE_OPTIONS },
  maxPositionals: 0,
  help: `Usage: rulec registry log [options]

Print the audit log: every operation in order (and every repair), with the
index seq it produced, who asked and which keys signed. The log is
hash-chained and the signed index records its head: rulec registry verify
detects an edited, dropped or reordered entry.

Options:
${STORE_HELP}`,
  async run(ctx) {
    const store = storeFrom(ctx);
    if (!(await store.exists())) throw registryError('RC7209', { file: '', message: `no registry at ${store.location}` });
    const parsed = parseAudit((await store.readAudit(0)).bytes);
    if (ctx.format === 'json') {
      json(ctx.io, { ok: parsed.diagnostics.length === 0, entries: parsed.lines.map((l) => ({ ...l.entry, hash: l.hash })), torn: parsed.torn, diagnostics: parsed.diagnostics });
    } else {
      ctx.io.out(parsed.lines.map((l) => `#${String(l.entry.entry).padEnd(4)} ${l.entry.at}  ${describe(l.entry)}`).join('\n') + (parsed.lines.length ? '\n' : ''));
      if (parsed.torn) ctx.io.out(`(a torn last line of ${parsed.torn.bytes} bytes: run rulec registry verify)\n`);
      for (const d of parsed.diagnostics) ctx.io.out(`audit.log:${d.range.start.line}:1 - error ${d.code}: ${d.message}\n`);
    }
    return parsed.diagnostics.length === 0 ? EXIT.clean : EXIT.errors;
  },
};
