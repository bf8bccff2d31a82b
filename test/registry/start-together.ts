/**
 * The test's side of scripts/start-together.mjs: once every racing process
 * has said "ready" (its first line on stdout), write "go" to each one's
 * stdin, so they race from the same moment. A process that ends before it
 * was ready fails the start instead of leaving the test to wait for it.
 */
import type { ChildProcess } from 'node:child_process';

export async function startTogether(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child, i) => new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (!out.startsWith('ready\n')) return;
      child.stdout?.off('data', onData);
      resolve();
    };
    child.stdout?.on('data', onData);
    child.once('close', (code) => reject(new Error(`racing process ${i} ended (exit ${code}) before it was ready`)));
  })));
  for (const child of children) child.stdin?.end('go\n');
}
