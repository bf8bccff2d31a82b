// `node run-check.mjs ARGS…`: run dist/cli/commands/check.js as the CLI would, without
// cli/main.js's command table, so check-process.test.ts sees what the check command
// itself loads.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, dirname } from 'node:path';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { checkCommand } = await import(pathToFileURL(join(dist, 'cli', 'commands', 'check.js')).href);
const io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), cwd: process.cwd() };
process.exitCode = await checkCommand(process.argv.slice(2), io);
