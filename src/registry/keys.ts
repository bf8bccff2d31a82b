/**
 * ed25519 keys (node:crypto): generation, the key id, and loading a private
 * key file. A key id is the hex sha256 of the public key's SPKI DER bytes, so
 * a trust file can check that an id and its public key belong together.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from '../util/errors.js';
import { sha256Hex } from '../util/hash.js';

export interface SigningKey {
  keyid: string;
  key: KeyObject;
  /** Where it was read from, for messages. */
  source: string;
}

export interface GeneratedKey {
  keyid: string;
  /** PKCS#8 PEM: the private key file. */
  privatePem: string;
  /** base64 of the SPKI DER: the form a trust file holds. */
  publicKey: string;
}

export function generateKey(): GeneratedKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return { keyid: sha256Hex(der), privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey: der.toString('base64') };
}

export function keyidOf(publicKey: KeyObject): string {
  return sha256Hex(publicKey.export({ type: 'spki', format: 'der' }));
}

/** A trust file's base64 SPKI DER → public key, or null when it is not an ed25519 public key. */
export function publicKeyFrom(base64: string): KeyObject | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  try {
    const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

/** Read a PKCS#8 PEM ed25519 private key; anything else is a usage error (exit 2). */
export function loadSigningKey(path: string): SigningKey {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read key file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new UsageError(`${path} is not a PEM private key (make one with rulec keys generate)`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new UsageError(`${path} is a ${key.asymmetricKeyType ?? 'unknown'} key; rulec signs with ed25519 keys`);
  return { keyid: keyidOf(createPublicKey(key)), key, source: path };
}
