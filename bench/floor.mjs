// The floor for `npm run bench`: the least work any compiler of this repo must do —
// list tracked files with `git ls-files -z`, pick out the instruction files, read each
// one and sha256 it. Run as a child process so Node's startup cost is included, as it
// is for the CLI.
//
//   node bench/floor.mjs <repo>
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const INSTRUCTION =
  /(^|\/)(AGENTS\.md|AGENTS\.override\.md|CLAUDE\.md|CLAUDE\.local\.md|GEMINI\.md|\.cursorrules)$|(^|\/)\.claude\/rules\/.+\.md$|(^|\/)\.cursor\/rules\/.+\.mdc$|(^|\/)\.github\/instructions\/.+\.instructions\.md$|(^|\/)\.github\/copilot-instructions\.md$/;

const repo = path.resolve(process.argv[2] ?? '.');
const out = execFileSync('git', ['ls-files', '-z'], { cwd: repo, maxBuffer: 1 << 30 });
const tracked = out.toString('utf8').split('\0').filter(Boolean);
const all = createHash('sha256');
let count = 0;
let bytes = 0;
for (const rel of tracked) {
  if (!INSTRUCTION.test(rel)) continue;
  const buf = fs.readFileSync(path.join(repo, rel));
  all.update(rel).update('\0').update(createHash('sha256').update(buf).digest());
  count++;
  bytes += buf.length;
}
console.log(JSON.stringify({ tracked: tracked.length, instructionFiles: count, bytes, digest: all.digest('hex') }));
