// One of the concurrency test's processes: `count` random registry operations
// through the library, each a read-modify-write of the one store. Prints one
// JSON line per operation: {actor, op, ok, seq | code}.
const ops = await import('../../../dist/registry/ops.js');
const { LocalStore } = await import('../../../dist/registry/stores/local.js');
const { GitStore } = await import('../../../dist/registry/stores/git.js');
const { loadSigningKey } = await import('../../../dist/registry/keys.js');
const { parseTrust } = await import('../../../dist/registry/trust.js');
const { readFileSync } = await import('node:fs');
// storeDir: a directory, or git+URL with cacheDir: this process's host's scratch cache.
const [storeDir, trustFile, keyFile, bundlesJson, id, count, seed, cacheDir] = process.argv.slice(2);
const trust = parseTrust(readFileSync(trustFile), 'trust.json');
if (!trust.ok) throw new Error('trust');
const bundles = JSON.parse(readFileSync(bundlesJson, 'utf8'));
const key = loadSigningKey(keyFile);
let rnd = Number(seed);
const next = (n) => { rnd = (rnd * 1103515245 + 12345) % 2147483648; return Math.floor((rnd / 2147483648) * n); };
const store = storeDir.startsWith('git+') ? new GitStore(storeDir, { cacheDir, lockTimeoutMs: 120_000 }) : new LocalStore(storeDir, { lockTimeoutMs: 120_000 });
await (await import('./start-together.mjs')).startTogether();
const { latestChecked } = await import('../../../dist/registry/writer.js');
const pick = (list) => list[next(list.length)];
const version = (v) => v.split('.').map(Number);
const above = (a, b) => { const [x, y] = [version(a), version(b)]; return x[1] > y[1]; };
const KINDS = ['publish', 'publish', 'publish', 'canary', 'canary', 'ramp', 'ramp', 'promote', 'promote', 'abort', 'rollback', 'revoke'];
let state = null;
for (let i = 0; i < Number(count); i++) {
  const actor = `p${id}-${i}`;
  const w = { store, trust: trust.trust, keys: [key], actor };
  // Choose from this process's last view of the registry, as a publisher would; others move on meanwhile.
  if (state === null) state = (await store.exists()) ? (await latestChecked(store, trust.trust)).point.state : { bundles: {}, channels: {}, denylist: {} };
  const ch = state.channels.stable;
  const drafts = Object.entries(ch?.bundles ?? {}).filter(([, b]) => b.state === 'draft').map(([d]) => d);
  const fresh = bundles.filter((b) => !state.denylist[b.digest] && !ch?.bundles[b.digest] && (!ch?.version || above(b.version, ch.version)));
  const kind = KINDS[next(KINDS.length)];
  const run = {
    publish: () => ops.publish(w, (fresh[0] ?? pick(bundles)).dir),
    canary: () => ops.startCanary(w, { ref: drafts.length ? pick(drafts) : pick(bundles).digest, bps: 1 + next(5000) }),
    ramp: () => ops.ramp(w, { bps: Math.min(10000, (ch?.canary?.bps ?? 0) + 1 + next(2000)) }),
    promote: () => ops.promote(w),
    abort: () => ops.abort(w),
    rollback: () => ops.rollback(w),
    revoke: () => ops.revoke(w, { ref: pick(Object.keys(state.bundles).length ? Object.keys(state.bundles) : [pick(bundles).digest]), severity: 'drain', reason: actor }),
  }[kind];
  try {
    const r = await run();
    state = r.index.doc.state;
    process.stdout.write(`${JSON.stringify({ actor, op: r.index.doc.op.op, ok: true, seq: r.index.seq })}\n`);
  } catch (e) {
    if (!e.code || !/^RC7/.test(e.code)) throw e;
    state = null; // refused: look again before choosing
    process.stdout.write(`${JSON.stringify({ actor, op: kind, ok: false, code: e.code, message: e.message })}\n`);
  }
}
store.close?.();
