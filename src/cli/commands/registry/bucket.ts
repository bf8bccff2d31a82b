/** `rulec registry bucket SUBJECT`: which bucket a subject falls in, and whether the canary includes it. */
import { UsageError } from '../../../util/errors.js';
import { bucketOf, inCohort, validSubject } from '../../../registry/cohort.js';
import { own } from '../../../registry/model.js';
import { latestChecked } from '../../../registry/writer.js';
import { str } from '../../args.js';
import { EXIT } from '../../io.js';
import { CHANNEL_HELP, channelFrom, json, positional, short, STORE_HELP, STORE_OPTIONS, storeFrom, trustFrom, type Subcommand } from './common.js';
import { registryError } from '../../../registry/errors.js';

export const BUCKET: Subcommand = {
  options: { ...STORE_OPTIONS, channel: { type: 'string' }, 'bundle-id': { type: 'string' }, salt: { type: 'string' } },
  maxPositionals: 1,
  help: `Usage: rulec registry bucket SUBJECT [--bundle-id ID --salt S] [options]

Print SUBJECT's bucket (0–9999) in the channel's running canary and whether
the canary includes it (bucket < canary size in basis points): "why did my
repo get the new rules?". The bucket is
  uint64_be(sha256(bundle_id ‖ 0x00 ‖ salt ‖ 0x00 ‖ subject)[0..8]) mod 10000.
With --bundle-id and --salt, compute it for those instead (no registry needed).

Options:
  --bundle-id ID     the canary bundle's id
  --salt S           the canary's salt
${CHANNEL_HELP}
${STORE_HELP}`,
  async run(ctx) {
    const subject = positional(ctx, 0, 'SUBJECT');
    if (!validSubject(subject)) throw new UsageError('a subject is 1–1024 characters without NUL');
    const id = str(ctx.values, 'bundle-id');
    const salt = str(ctx.values, 'salt');
    if ((id === undefined) !== (salt === undefined)) throw new UsageError('give both --bundle-id and --salt, or neither');
    if (id !== undefined && salt !== undefined) {
      const bucket = bucketOf(id, salt, subject);
      if (ctx.format === 'json') json(ctx.io, { subject, bundle_id: id, salt, bucket });
      else ctx.io.out(`${subject}: bucket ${bucket} (bundle id ${id}, salt ${salt}); in a canary of N bps when ${bucket} < N\n`);
      return EXIT.clean;
    }
    const channel = channelFrom(ctx);
    const { index } = await latestChecked(await storeFrom(ctx), trustFrom(ctx));
    const ch = index && own(index.doc.state.channels, channel);
    if (!index || !ch) throw registryError('RC7112', { file: '', message: `channel ${channel} does not exist` });
    if (!ch.canary) throw registryError('RC7108', { file: '', message: `channel ${channel} runs no canary: every subject gets ${short(ch.promoted)}` });
    const canary = ch.canary;
    const bundleId = own(index.doc.state.bundles, canary.digest)?.bundle_id as string;
    const bucket = bucketOf(bundleId, canary.salt, subject);
    const included = inCohort(bucket, canary.bps);
    if (ctx.format === 'json') {
      json(ctx.io, { subject, channel, bundle_id: bundleId, salt: canary.salt, bucket, bps: canary.bps, in_canary: included, gets: included ? canary.digest : ch.promoted });
      return EXIT.clean;
    }
    ctx.io.out(`${subject}: bucket ${bucket}, ${included ? 'in' : 'not in'} the canary of ${channel} (${canary.bps} bps: buckets 0–${canary.bps - 1})\n`
      + `  gets ${short(included ? canary.digest : ch.promoted)} (${included ? `canary ${bundleId}, salt ${canary.salt}` : 'promoted'})\n`);
    return EXIT.clean;
  },
};
