// The compare-and-swap race: every process tries to commit the next index
// `rounds` times; prints the seqs it won, one per line. Two winners of one
// seq would be a broken CAS.
// argv: local DIR ROUNDS | git git+URL CACHE-BASE ROUNDS (each git process
// gets its own scratch repository, as a writer on another host would).
const kind = process.argv[2];
let store;
let rest;
if (kind === 'git') {
  const { GitStore } = await import('../../../dist/registry/stores/git.js');
  store = new GitStore(process.argv[3], { cacheDir: `${process.argv[4]}/${process.pid}` });
  rest = process.argv.slice(5);
} else {
  const { LocalStore } = await import('../../../dist/registry/stores/local.js');
  store = new LocalStore(process.argv[3]);
  rest = process.argv.slice(4);
}
const rounds = Number(rest[0]);
const won = [];
await (await import('./start-together.mjs')).startTogether();
for (let i = 0; i < rounds; i++) {
  const head = await store.latestIndex();
  const seq = head?.seq ?? 0;
  if (await store.casIndex(seq, { bytes: `${process.pid}:${seq + 1}`, audit: '', auditAt: (await store.readAudit(1e12)).size })) won.push(seq + 1);
}
store.close?.();
process.stdout.write(`won ${process.pid} ${won.join(' ')}\n`);
