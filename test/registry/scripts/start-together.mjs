// How a racing process starts (cas-race.mjs, worker-ops.mjs; the test's side is
// ../start-together.ts): it says "ready" on stdout, then waits for the "go" the test writes to
// every process's stdin once all are up, so they race from the same moment. A read that blocks,
// where polling a file every 2 ms cost each waiting process a tenth of a core; a test that dies
// first closes the pipe, and the process ends with its wait unsettled.
export async function startTogether() {
  process.stdout.write('ready\n');
  await new Promise((go) => process.stdin.once('data', go));
  process.stdin.destroy();
}
