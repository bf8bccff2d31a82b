/** `rulec registry mirror --to oci://HOST/REPO`: copy the signed index and the bundles runtimes need to an OCI registry. */
import { UsageError } from '../../../util/errors.js';
import { mirror } from '../../../registry/mirror.js';
import { GRAMMAR } from '../../../registry/model.js';
import { OciStore } from '../../../registry/stores/oci.js';
import { str } from '../../args.js';
import { EXIT } from '../../io.js';
import { json, short, STORE_HELP, STORE_OPTIONS, storeFrom, storeLabel, trustFrom, type Subcommand } from './common.js';

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
const indexRange = (from: number, to: number): string => (from >= to ? '' : from + 1 === to ? ` (seq ${to})` : ` (seq ${from + 1}–${to})`);

export const MIRROR: Subcommand = {
  options: { ...STORE_OPTIONS, to: { type: 'string' }, channel: { type: 'string', multiple: true } },
  maxPositionals: 0,
  help: `Usage: rulec registry mirror --to oci://HOST/REPO [options]

Copy the registry to an OCI registry (GHCR, ECR, Harbor, Artifactory,
Docker's registry) that runtimes admit from (rulec registry admit --from):
the bundles each channel serves (promoted and canary) as OCI artifacts, and
every signed index the mirror lacks, then the latest. The whole index chain is
verified against the trust file first, and an expired index is refused (run
rulec registry refresh). The mirror is untrusted: admitters verify what they
read and refuse rollback, freeze, swapped blobs and endless data.
Run it after every operation (or on a schedule); run it again after a failure.

Credentials: RULEC_OCI_USERNAME and RULEC_OCI_PASSWORD (basic, or for the
registry's token service); anonymous without. Extra CA certificates:
NODE_EXTRA_CA_CERTS.

Options:
  --to oci://HOST/REPO
                     the mirror (oci+http://127.0.0.1:PORT/REPO: plain HTTP,
                     on this machine only)
  --channel NAME     mirror the bundles of this channel (repeatable; default: all)
${STORE_HELP}`,
  async run(ctx) {
    const to = str(ctx.values, 'to');
    if (to === undefined) throw new UsageError('missing --to oci://HOST/REPO');
    const channels = ctx.values.channel as string[] | undefined;
    for (const c of channels ?? []) if (!GRAMMAR.channel.test(c)) throw new UsageError(`--channel must be lower-case letters, digits, . _ - (at most 64), got "${c}"`);
    const source = await storeFrom(ctx);
    const target = new OciStore(to);
    try {
      const r = await mirror({ source, trust: trustFrom(ctx), target, ...(channels ? { channels } : {}) });
      const { doc } = r.latest;
      if (ctx.format === 'json') {
        json(ctx.io, { ok: true, to: target.location, seq: doc.seq, index: r.latest.digest, expires: doc.expires, from: r.from, served: r.served, pushed: r.pushed });
        return EXIT.clean;
      }
      const served = r.served.map((s) => `${s.channel} ${s.role} ${short(s.digest)}`).join(', ') || 'none';
      ctx.io.out([
        `mirrored index seq ${doc.seq} of ${storeLabel(ctx, source)} to ${target.location}`,
        `  bundles  ${served}`,
        `  pushed   ${count(r.pushed.blobs, 'blob')} (${size(r.pushed.bytes)}), ${count(r.pushed.bundles, 'bundle artifact')}, ${count(r.pushed.indexes, 'index artifact')}${indexRange(r.from, doc.seq)}`,
        `  expires  ${doc.expires}`,
      ].join('\n') + '\n');
      return EXIT.clean;
    } finally {
      target.close();
    }
  },
};
