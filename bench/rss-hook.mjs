// Preloaded with `node --import ./bench/rss-hook.mjs …` by bench/run.mjs.
// At exit, writes this process's peak resident set size (KiB, from getrusage) to the
// file named by RULEC_BENCH_RSS_FILE. Child processes the measured program spawns
// (e.g. git) are not included.
import fs from 'node:fs';

const file = process.env.RULEC_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      fs.writeFileSync(file, String(process.resourceUsage().maxRSS));
    } catch {
      // never change the exit status of the measured program
    }
  });
}
