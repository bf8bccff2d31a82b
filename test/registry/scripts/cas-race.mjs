// The compare-and-swap race: every process tries to commit the next index
// `rounds` times; prints the seqs it won, one per line. Two winners of one
// seq would be a broken CAS.
const { LocalStore } = await import('../../../dist/registry/stores/local.js');
const [dir, rounds, goFile] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const store = new LocalStore(dir);
const won = [];
const { existsSync } = await import('node:fs');
// Start together: wait for the go file the test writes once every process is up.
process.stdout.write('ready\n');
while (!existsSync(goFile)) await new Promise((r) => setTimeout(r, 2));
for (let i = 0; i < rounds; i++) {
  const head = await store.latestIndex();
  const seq = head?.seq ?? 0;
  if (await store.casIndex(seq, { bytes: `${process.pid}:${seq + 1}`, audit: '', auditAt: (await store.readAudit(1e12)).size })) won.push(seq + 1);
}
process.stdout.write(`won ${process.pid} ${won.join(' ')}\n`);
