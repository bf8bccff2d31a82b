/** `rulec registry status`: each channel's promoted bundle, canary, last known good and bundles; the denylist. */
import { latestChecked } from '../../../registry/writer.js';
import { registryError } from '../../../registry/errors.js';
import { EXIT } from '../../io.js';
import { displayPath } from '../shared.js';
import { json, short, STORE_HELP, STORE_OPTIONS, storeFrom, trustFrom, type Subcommand } from './common.js';

export const STATUS: Subcommand = {
  options: { ...STORE_OPTIONS },
  maxPositionals: 0,
  help: `Usage: rulec registry status [options]

Show the latest signed index (its signatures and its last step checked; run
rulec registry verify for the whole history): per channel the promoted bundle,
the canary and its size, the last known good bundle and every bundle's state;
then the denylist.

Options:
${STORE_HELP}`,
  async run(ctx) {
    const store = storeFrom(ctx);
    const trust = trustFrom(ctx);
    if (!(await store.exists())) throw registryError('RC7209', { file: '', message: `no registry at ${store.location}` });
    const { index } = await latestChecked(store, trust);
    if (!index) throw registryError('RC7209', { file: '', message: `no index in ${store.location}` });
    const { doc } = index;
    if (ctx.format === 'json') {
      json(ctx.io, { ok: true, seq: doc.seq, index: index.digest, at: doc.at, expires: doc.expires, state: doc.state });
      return EXIT.clean;
    }
    const bundles = doc.state.bundles;
    const label = (d: string | null): string => (d === null ? '(none)' : `${short(d)} ${bundles[d]?.bundle_id ?? ''} ${bundles[d]?.version ?? ''}`.trimEnd());
    const lines = [`registry ${displayPath(ctx.io, store.location)}: index seq ${doc.seq} (${doc.op.op} by ${doc.op.actor}, ${doc.at}; expires ${doc.expires})`];
    for (const [name, ch] of Object.entries(doc.state.channels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      lines.push('', `channel ${name}`, `  promoted    ${label(ch.promoted)}`);
      lines.push(`  canary      ${ch.canary ? `${label(ch.canary.digest)} at ${ch.canary.bps} bps, salt ${ch.canary.salt}` : '(none)'}`);
      lines.push(`  last good   ${label(ch.last_good)}`);
      const rows = Object.entries(ch.bundles).sort(([, a], [, b]) => b.since - a.since);
      for (const [d, b] of rows) lines.push(`    ${b.state.padEnd(10)} ${label(d)}  (rev ${b.rev}, seq ${b.since})`);
    }
    const denied = Object.entries(doc.state.denylist);
    if (denied.length > 0) {
      lines.push('', 'denylist');
      for (const [d, e] of denied) lines.push(`  ${label(d)}  ${e.severity} at seq ${e.seq}: ${e.reason}`);
    }
    ctx.io.out(`${lines.join('\n')}\n`);
    return EXIT.clean;
  },
};
