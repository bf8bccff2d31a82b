/**
 * One headless Chromium for a test file, driven over the DevTools protocol on
 * a pipe (`--remote-debugging-pipe`: commands go in on fd 3, answers and
 * events come out on fd 4, each a JSON message ended by a NUL byte). A page
 * is a fresh tab: open it at a URL, read its DOM once loaded (what
 * `--dump-dom` prints), or take a screenshot at a given size. Starting the
 * browser costs about as much as the six pages the review page's test opens,
 * so the file starts it once instead of once per page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

const ANSWER_MS = 30_000;

interface Message { id?: number; method?: string; sessionId?: string; result?: Record<string, unknown>; error?: { message: string }; params?: Record<string, unknown> }

export interface Headless {
  /** The DOM of `url` after its load event, as `--dump-dom` prints it. */
  dom(url: string): Promise<string>;
  /** A PNG of `url` after its load event, in a viewport of `width` × `height`. */
  screenshot(url: string, width: number, height: number): Promise<Buffer>;
  close(): Promise<void>;
}

/** Start `binary` headless with a fresh profile in `workDir`, with no network and no background tasks. */
export function startHeadless(binary: string, workDir: string): Headless {
  const profile = mkdtempSync(join(workDir, 'profile-'));
  const child: ChildProcess = spawn(binary, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--hide-scrollbars', `--user-data-dir=${profile}`,
    '--remote-debugging-pipe', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });

  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(m: Message) => void>();
  let exited: Error | null = null;
  const fail = (e: Error): void => {
    exited = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  child.on('error', fail);
  // A browser that dies early closes the pipes under us: that is its exit, reported as such.
  input.on('error', () => undefined);
  output.on('error', () => undefined);
  child.on('exit', (code, signal) => fail(new Error(`chromium exited (${code ?? signal}): ${stderr}`)));
  let pending = Buffer.alloc(0);
  output.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (let end = pending.indexOf(0); end >= 0; end = pending.indexOf(0)) {
      const message = JSON.parse(pending.subarray(0, end).toString('utf8')) as Message;
      pending = pending.subarray(end + 1);
      const w = message.id === undefined ? undefined : waiting.get(message.id);
      if (w) {
        waiting.delete(message.id as number);
        if (message.error) w.reject(new Error(message.error.message));
        else w.resolve(message.result ?? {});
      }
      for (const l of listeners) l(message);
    }
  });

  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      // A browser that never answers (no pipe support, hung) fails the test with its name, not a timeout.
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`chromium did not answer ${method} in ${ANSWER_MS / 1000} s: ${stderr}`));
      }, ANSWER_MS).unref();
      const settle = <A>(f: (a: A) => void) => (a: A): void => { clearTimeout(timer); f(a); };
      waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  };

  /** A new tab at `url`, once its load event has fired; `before` runs on the blank tab first. */
  const open = async <T>(url: string, use: (sessionId: string) => Promise<T>, before?: (sessionId: string) => Promise<unknown>): Promise<T> => {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true }) as { sessionId: string };
    try {
      await send('Page.enable', {}, sessionId);
      await before?.(sessionId);
      const loaded = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(on);
          reject(new Error(`${url} did not finish loading in ${ANSWER_MS / 1000} s`));
        }, ANSWER_MS).unref();
        const on = (m: Message): void => {
          if (m.sessionId === sessionId && m.method === 'Page.loadEventFired') {
            clearTimeout(timer);
            listeners.delete(on);
            resolve();
          }
        };
        listeners.add(on);
      });
      // Awaited below unless the navigation fails first: then its rejection is nobody's.
      loaded.catch(() => undefined);
      const navigated = await send('Page.navigate', { url }, sessionId);
      if (typeof navigated.errorText === 'string') throw new Error(`cannot open ${url}: ${navigated.errorText}`);
      await loaded;
      return await use(sessionId);
    } finally {
      await send('Target.closeTarget', { targetId });
    }
  };

  return {
    dom: (url) => open(url, async (sessionId) => {
      const { result } = await send('Runtime.evaluate', { expression: 'document.documentElement.outerHTML', returnByValue: true }, sessionId);
      return String((result as { value: unknown }).value);
    }),
    screenshot: (url, width, height) => open(url, async (sessionId) => {
      const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
      return Buffer.from(String(data), 'base64');
    }, (sessionId) => send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, sessionId)),
    close: async () => {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      await send('Browser.close').catch(() => undefined);
      await gone;
    },
  };
}
