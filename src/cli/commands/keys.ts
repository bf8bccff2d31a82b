/** `rulec keys generate|revoke`: ed25519 signing keys and the trust file that lists them. */
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { UsageError } from '../../util/errors.js';
import { generateKey } from '../../registry/keys.js';
import { ROLES, type Role } from '../../registry/model.js';
import { parseTrust, TRUST_SCHEMA_ID, type TrustFile } from '../../registry/trust.js';
import { formatDiagnostics } from '../../report/text.js';
import { formatOption, parseCommandArgs, str } from '../args.js';
import { EXIT, type Io } from '../io.js';

export const KEYS_HELP = `Usage: rulec keys generate --out FILE [--name NAME] [--trust FILE --roles R,R]
       rulec keys revoke KEYID --trust FILE

generate  make an ed25519 key pair: FILE holds the private key (PKCS#8 PEM,
          mode 0600), FILE.pub the public key (base64 SPKI DER). With --trust,
          add the public key to that trust file (created when missing) for the
          given roles: publish, promote, revoke.
revoke    move a key (its id or a unique prefix) to the trust file's
          revoked_keys: no signature by it counts again.

A trust file lists keys, roles and each role's threshold (k of n signatures);
edit "threshold" by hand to require more than one signature.

Options:
  --out FILE       where to write the private key (refuses to overwrite)
  --name NAME      the key's name in the trust file (default: FILE's name)
  --trust FILE     the trust file to update
  --roles LIST     roles for the new key, comma-separated (default: none)
  --format FMT     text (default) or json`;

export async function keysCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { out: { type: 'string' }, name: { type: 'string' }, trust: { type: 'string' }, roles: { type: 'string' }, format: { type: 'string' } }, 2);
  if (values.help || positionals.length === 0) return io.out(`${KEYS_HELP}\n`), values.help ? EXIT.clean : EXIT.failure;
  const format = formatOption(values);
  const trustPath = str(values, 'trust');
  const [sub, arg] = positionals;
  if (sub === 'generate') return generate(io, format, str(values, 'out'), str(values, 'name'), trustPath, str(values, 'roles'));
  if (sub === 'revoke') {
    if (!arg || !trustPath) throw new UsageError('keys revoke needs KEYID and --trust FILE');
    return revokeKey(io, format, arg, trustPath);
  }
  throw new UsageError(`unknown subcommand "${sub}"; run rulec keys --help`);
}

function generate(io: Io, format: 'text' | 'json', out: string | undefined, name: string | undefined, trustPath: string | undefined, rolesText: string | undefined): number {
  if (!out) throw new UsageError('keys generate needs --out FILE');
  const roles = (rolesText ?? '').split(',').map((r) => r.trim()).filter((r) => r !== '');
  for (const r of roles) if (!(ROLES as readonly string[]).includes(r)) throw new UsageError(`unknown role "${r}": roles are ${ROLES.join(', ')}`);
  if (roles.length > 0 && !trustPath) throw new UsageError('--roles needs --trust FILE');
  const path = resolve(io.cwd, out);
  const keyName = name ?? basename(out).replace(/\.(key|pem)$/, '');
  const trust = trustPath ? loadOrCreate(resolve(io.cwd, trustPath)) : null;
  const key = generateKey();
  mkdirSync(dirname(path), { recursive: true });
  if (trustPath) mkdirSync(dirname(resolve(io.cwd, trustPath)), { recursive: true });
  writeNew(path, key.privatePem, 0o600);
  writeNew(`${path}.pub`, `${key.publicKey}\n`, 0o644);
  if (trust && trustPath) {
    trust.keys[key.keyid] = { name: keyName, public_key: key.publicKey };
    for (const r of roles as Role[]) trust.roles[r].keys.push(key.keyid);
    saveTrust(resolve(io.cwd, trustPath), trust, trustPath);
  }
  if (format === 'json') io.out(`${JSON.stringify({ keyid: key.keyid, name: keyName, private: out, public: `${out}.pub`, public_key: key.publicKey, trust: trustPath ?? null, roles }, null, 2)}\n`);
  else {
    io.out(`generated ed25519 key ${keyName} (${key.keyid.slice(0, 16)})\n  private  ${out} (keep it secret)\n  public   ${out}.pub\n`);
    if (trustPath) io.out(`  trusted  in ${trustPath}${roles.length ? ` for ${roles.join(', ')}` : ' (no role yet)'}\n`);
  }
  return EXIT.clean;
}

function revokeKey(io: Io, format: 'text' | 'json', ref: string, trustPath: string): number {
  const path = resolve(io.cwd, trustPath);
  if (!existsSync(path)) throw new UsageError(`no trust file at ${trustPath}`);
  const trust = loadOrCreate(path);
  const ids = Object.keys(trust.keys).filter((id) => id.startsWith(ref) || trust.keys[id]?.name === ref);
  if (ids.length !== 1) throw new UsageError(ids.length === 0 ? `no key ${ref} in ${trustPath}` : `${ref} matches ${ids.length} keys; give more of its id`);
  const id = ids[0] as string;
  const name = trust.keys[id]?.name ?? id;
  delete trust.keys[id];
  for (const r of ROLES) trust.roles[r].keys = trust.roles[r].keys.filter((k) => k !== id);
  trust.revoked_keys = [...new Set([...(trust.revoked_keys ?? []), id])].sort();
  saveTrust(path, trust, trustPath);
  if (format === 'json') io.out(`${JSON.stringify({ revoked: id, name, trust: trustPath }, null, 2)}\n`);
  else io.out(`revoked key ${name} (${id.slice(0, 16)}) in ${trustPath}: no signature by it counts again\n`);
  return EXIT.clean;
}

function loadOrCreate(path: string): TrustFile {
  if (!existsSync(path)) {
    return { schema: TRUST_SCHEMA_ID, keys: {}, roles: { publish: { keys: [], threshold: 1 }, promote: { keys: [], threshold: 1 }, revoke: { keys: [], threshold: 1 } } };
  }
  const parsed = parseTrust(readFileSync(path), path);
  if (!parsed.ok) throw new UsageError(`${path} is not a valid trust file:\n${formatDiagnostics(parsed.diagnostics, () => undefined)}`);
  return parsed.doc;
}

/** Check the result parses, then replace the file atomically (it is read by every admitter). */
function saveTrust(path: string, trust: TrustFile, shown: string): void {
  const text = `${JSON.stringify(trust, null, 2)}\n`;
  const check = parseTrust(text, shown);
  if (!check.ok) throw new UsageError(`the trust file would become invalid, not written:\n${formatDiagnostics(check.diagnostics, () => undefined)}`);
  const tmp = resolve(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeNew(tmp, text, 0o644);
  renameSync(tmp, path);
}

function writeNew(path: string, text: string, mode: number): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'EEXIST' ? `${path} exists; not overwriting it` : `cannot write ${path}: ${code}`);
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
