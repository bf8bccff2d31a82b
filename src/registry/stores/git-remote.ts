/**
 * The git store's remote as an address and in messages: `git+URL` → what git
 * is given, and any password a URL carries hidden wherever it is shown.
 */
import { resolve } from 'node:path';
import { registryError } from '../errors.js';

/** `git+URL` → the URL git is given: a URL or scp-like address as is, a local path made absolute. */
export function gitRemoteOf(spec: string, cwd = process.cwd()): string {
  const url = spec.startsWith('git+') ? spec.slice(4) : spec;
  if (url === '') throw registryError('RC7601', { file: '', message: 'git+ needs a repository URL or path' });
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  if (colon > 0 && (slash < 0 || colon < slash)) return url;
  return resolve(cwd, url);
}

/** A URL fit for messages: any password in it is hidden. */
export function displayUrl(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^/@:\s']*):[^/@\s']*@/gi, '$1:***@');
}

/** git's last words, for a message: without hints, and without any password a URL in them carries. */
export function lastLines(stderr: string): string {
  const lines = stderr.split('\n').map((l) => displayUrl(l.trim())).filter((l) => l !== '' && !/^(hint|Done|To )/.test(l));
  return lines.length === 0 ? '' : `: ${lines.slice(-3).join(' / ')}`;
}
