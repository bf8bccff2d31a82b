/** `rulec registry verify`: check the whole store; repair what a crash left, and log the repair. */
import { verifyRegistry } from '../../../registry/verify.js';
import { formatDiagnostics, summaryLine } from '../../../report/text.js';
import { EXIT } from '../../io.js';
import { displayPath } from '../shared.js';
import { json, STORE_HELP, STORE_OPTIONS, storeFrom, trustFrom, type Subcommand } from './common.js';

export const VERIFY: Subcommand = {
  options: { ...STORE_OPTIONS },
  maxPositionals: 0,
  help: `Usage: rulec registry verify [options]

Check the whole store: every signed index from the first (signatures to the
role's threshold, links, and that each follows from its operation), every blob
the latest index references (manifests, their signatures, contexts and
attachments) and the audit log's hash chain against the indexes. What a
killed writer leaves (temp files, its lock, a torn last audit line, the
latest index's missing audit entry) is repaired and the repair logged;
anything else is reported. Exit 1 when a problem is found.

Options:
${STORE_HELP}`,
  async run(ctx) {
    const store = storeFrom(ctx);
    const r = await verifyRegistry(store, trustFrom(ctx));
    const failed = r.diagnostics.some((d) => d.severity === 'error');
    if (ctx.format === 'json') {
      json(ctx.io, { ok: !failed, seq: r.latest?.seq ?? 0, index: r.latest?.digest ?? null, blobs: r.blobs, repaired: r.repaired, diagnostics: r.diagnostics });
    } else {
      const text = formatDiagnostics(r.diagnostics, () => undefined);
      ctx.io.out(`${text}${text ? '\n' : ''}registry ${displayPath(ctx.io, store.location)}: ${failed ? 'FAILED' : 'verified'} — index seq ${r.latest?.seq ?? 0}, ${r.blobs} blobs${r.repaired ? ', audit log repaired' : ''}\n${summaryLine(r.diagnostics)}\n`);
    }
    return failed ? EXIT.errors : EXIT.clean;
  },
};
