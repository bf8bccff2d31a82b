// One of the concurrency test's processes: `count` random registry operations
// through the library, each a read-modify-write of the one store. Prints one
// JSON line per operation: {actor, op, ok, seq | code}.
const ops = await import('../../../dist/registry/ops.js');
const { LocalStore } = await import('../../../dist/registry/stores/local.js');
const { loadSigningKey } = await import('../../../dist/registry/keys.js');
const { parseTrust } = await import('../../../dist/registry/trust.js');
const { readFileSync, existsSync } = await import('node:fs');
const [storeDir, trustFile, keyFile, bundlesJson, id, count, seed] = process.argv.slice(2);
const trust = parseTrust(readFileSync(trustFile), 'trust.json');
if (!trust.ok) throw new Error('trust');
const bundles = JSON.parse(readFileSync(bundlesJson, 'utf8'));
const key = loadSigningKey(keyFile);
let rnd = Number(seed);
const next = (n) => { rnd = (rnd * 1103515245 + 12345) % 2147483648; return rnd % n; };
const store = new LocalStore(storeDir, { lockTimeoutMs: 120_000 });
process.stdout.write('ready\n');
while (!existsSync(`${storeDir}/../go`)) await new Promise((r) => setTimeout(r, 2));
for (let i = 0; i < Number(count); i++) {
  const actor = `p${id}-${i}`;
  const w = { store, trust: trust.trust, keys: [key], actor };
  const b = bundles[next(bundles.length)];
  const kind = ['publish', 'canary', 'ramp', 'promote', 'abort', 'revoke'][next(6)];
  const run = {
    publish: () => ops.publish(w, b.dir),
    canary: () => ops.startCanary(w, { ref: b.digest, bps: 1 + next(5000) }),
    ramp: () => ops.ramp(w, { bps: 5000 + next(5000) }),
    promote: () => ops.promote(w),
    abort: () => ops.abort(w),
    revoke: () => (next(4) === 0 ? ops.revoke(w, { ref: b.digest, severity: 'drain', reason: actor }) : ops.abort(w)),
  }[kind];
  try {
    const r = await run();
    process.stdout.write(`${JSON.stringify({ actor, op: r.index.doc.op.op, ok: true, seq: r.index.seq })}\n`);
  } catch (e) {
    if (!e.code || !/^RC7/.test(e.code)) throw e;
    process.stdout.write(`${JSON.stringify({ actor, op: kind, ok: false, code: e.code })}\n`);
  }
}
