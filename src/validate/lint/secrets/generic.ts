/**
 * Credentials without a provider prefix (RC6013, RC6014): a value assigned to
 * a secret-named key, an Authorization header, a password inside a URL.
 * These are recognised by their context rather than their shape, so each one
 * also has to look random or at least not look like a documentation value.
 * They are checked after the prefixed kinds and dropped where they overlap
 * one (`GITHUB_TOKEN=ghp_…` is a GitHub token, reported once).
 */
import type { SecretKind } from './kinds.js';
import { isPlaceholder, looksRandom, randomEnough } from './randomness.js';

// gitleaks generic-api-key (keywords key/token/secret/passw(or)?d/auth + an assignment operator, entropy
// floor 3.5) and secretlint-rule-pattern's password=/apikey=/token= examples: an identifier ending in a
// secret-ish word, then = or :, then a value. The word is part of the regex, so "notes: password=…"
// is not consumed as the assignment of "notes".
const SECRET_WORD = 'pass(?:word|wd)?|pwd|api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|credentials?|(?:access|auth|api|bearer|refresh)?[_-]?token';
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9_])(?<name>(?:[A-Za-z][A-Za-z0-9_.-]{0,63}?)?(?:${SECRET_WORD}))["']?[ \\t]{0,8}(?::|=|:=)[ \\t]{0,8}["'\`]?(?<secret>[^\\s"'\`,;)}\\]]{8,256})`, 'dgi');
const SECRET_NAME = new RegExp(`(?:${SECRET_WORD})$`, 'i');
const CODE_REFERENCE = /\benv\b|environ|getenv|secrets\.|vault|keyring|process\.|os\.|\(|\[/i;

// gitleaks curl-auth-header: an Authorization header with a bearer/basic/token credential.
const AUTH_HEADER =
  /(?<![A-Za-z0-9_-])Authorization["']?[ \t]{0,8}:[ \t]{0,8}(?:Bearer|Basic|Token)[ \t]{1,8}(?<secret>[A-Za-z0-9_~+/.=-]{12,2048})/dgi;

// secretlint-rule-basicauth (`<protocol>://<user>:<pass>@<host>`) and detect-secrets' BasicAuthDetector,
// with RFC 3986 userinfo characters (the password may contain ':' but never '@', '/' or whitespace).
const URL_CREDENTIALS =
  /(?<![A-Za-z0-9+.-])(?<scheme>[A-Za-z][A-Za-z0-9+.-]{1,19}):\/\/(?<user>[A-Za-z0-9._~%!$&'()*+,;=-]{0,64}):(?<secret>[A-Za-z0-9._~%!$&'()*+,;=:-]{1,128})@(?<host>\[[0-9A-Fa-f:.]{2,64}\]|[A-Za-z0-9.-]{1,253})/dg;

/** Passwords that documentation uses as stand-ins, and default passwords of local development images. */
const STAND_IN = /^(?:pass(?:word|wd)?\d*|pwd|p@ssw[o0]rd|secret\d*|changeme|change_me|test(?:ing)?\d*|guest|admin|root|postgres|mysql|redis|rabbitmq|mongo|sa|user(?:name)?|demo|dev|default|foo(?:bar(?:ed)?)?|bar|baz|qwerty|letmein|hunter2|token|api_?key|[x*.#_-]+|[0-9]{1,8})$/i;
const STAND_IN_WORD = /pass(?:word|wd)|secret|token|xxx/i;
/** RFC 2606 / RFC 6761 names reserved for documentation and testing. */
const RESERVED_HOST = /(?:^|\.)(?:example(?:\.(?:com|org|net))?|test|invalid|localhost)$/i;

function urlPasswordIsReal(password: string, user: string, host: string): boolean {
  const decoded = password.replace(/%[0-9A-Fa-f]{2}/g, 'x');
  return password !== user && !STAND_IN.test(password) && !STAND_IN_WORD.test(password) && !isPlaceholder(password) &&
    !/^[$%:]/.test(password) && !RESERVED_HOST.test(host) && decoded.length >= 4;
}

const group = (m: RegExpExecArray, name: string): string => m.groups?.[name] ?? '';

export const GENERIC_KINDS: SecretKind[] = [
  { code: 'RC6013', name: 'secret-assignment', label: 'secret assignment', keywords: ['pass', 'pwd', 'key', 'secret', 'token', 'credential'],
    re: ASSIGNMENT, prefix: 0, range: 'secret',
    accept: (v, _t, _e, m) => SECRET_NAME.test(group(m, 'name')) && v.length >= 12 && !CODE_REFERENCE.test(v) && looksRandom(v),
    message: (m, shown) => `${group(m, 'name')} is assigned a secret-looking value ${shown}` },
  { code: 'RC6013', name: 'secret-assignment', label: 'secret assignment', keywords: ['authorization'],
    re: AUTH_HEADER, prefix: 0, range: 'secret',
    accept: (v) => looksRandom(v) && randomEnough(v, 3.2),
    message: (_m, shown) => `Authorization header carries a secret-looking value ${shown}` },
  { code: 'RC6014', name: 'url-credentials', label: 'password in a URL', keywords: ['://'],
    re: URL_CREDENTIALS, prefix: 0, range: 'secret',
    accept: (v, _t, _e, m) => urlPasswordIsReal(v, group(m, 'user'), group(m, 'host')),
    message: (m, shown) => {
      const user = group(m, 'user');
      const who = user.length <= 32 && !looksRandom(user) ? user : '…';
      return `password in a URL ${group(m, 'scheme')}://${who}:${shown}@${group(m, 'host')}`;
    } },
];
