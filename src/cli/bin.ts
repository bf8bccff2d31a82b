#!/usr/bin/env node
/** The rulec process entry: run main() on argv with the real stdout/stderr, and set the exit code. */
import { EXIT, processIo } from './io.js';
import { main } from './main.js';

// A reader that stops early (`rulec explain … | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv.slice(2), processIo).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => { process.stderr.write(`rulec: internal error (RC9001): ${(e as Error).message}\n`); process.exitCode = EXIT.failure; },
);
