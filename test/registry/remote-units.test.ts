/**
 * Small pure pieces of the remote stores: git+URL forms, credentials kept out
 * of messages, the index artifact's shape, and HEAD answers that announce a
 * large body (a HEAD has none, so no size limit applies).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OciClient } from '../../src/registry/remote/oci-client.js';
import { artifactManifest, ARTIFACT, layer, LAYER, parseIndexArtifact } from '../../src/registry/remote/oci-layout.js';
import { displayUrl, gitRemoteOf } from '../../src/registry/stores/git-remote.js';

describe('git+URL', () => {
  it.each([
    ['git+https://git.example.com/acme/rules.git', 'https://git.example.com/acme/rules.git'],
    ['git+ssh://git@git.example.com/acme/rules.git', 'ssh://git@git.example.com/acme/rules.git'],
    ['git+git@github.com:acme/rules.git', 'git@github.com:acme/rules.git'],
    ['git+file:///srv/git/rules.git', 'file:///srv/git/rules.git'],
    ['git+/srv/git/rules.git', '/srv/git/rules.git'],
    ['git+../rules.git', join('/work/acme', '..', 'rules.git')],
  ])('%s → %s', (spec, remote) => {
    expect(gitRemoteOf(spec, '/work/acme')).toBe(remote);
  });

  it('names no empty remote, and keeps passwords out of messages', () => {
    expect(() => gitRemoteOf('git+')).toThrow(expect.objectContaining({ code: 'RC7601' }));
    expect(displayUrl("fatal: unable to access 'https://bot:s3cr3t@git.example.com/acme/rules.git/': 403"))
      .toBe("fatal: unable to access 'https://bot:***@git.example.com/acme/rules.git/': 403");
    expect(displayUrl('https://git.example.com/acme/rules.git')).toBe('https://git.example.com/acme/rules.git');
  });
});

describe('the index artifact', () => {
  const envelope = Buffer.from('{"payload":"","payloadType":"x","signatures":[]}');
  it('reads what the mirror writes, and refuses any other shape (RC7701)', () => {
    expect(parseIndexArtifact(artifactManifest(ARTIFACT.index, [layer(LAYER.envelope, envelope)]), 'index', 'm').envelope.size).toBe(envelope.length);
    for (const bad of [
      artifactManifest(ARTIFACT.bundle, [layer(LAYER.envelope, envelope)]),
      artifactManifest(ARTIFACT.index, [layer(LAYER.text, envelope)]),
      artifactManifest(ARTIFACT.index, []),
      Buffer.from('not json'),
    ]) expect(() => parseIndexArtifact(bad, 'index', 'm')).toThrow(expect.objectContaining({ code: 'RC7701' }));
  });
});

describe('HEAD requests', () => {
  it('a HEAD announcing a body larger than any limit is an answer, not endless data', async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-length': String(10 * 1024 ** 3), 'docker-content-digest': `sha256:${'a'.repeat(64)}` });
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const client = new OciClient(`oci+http://127.0.0.1:${(server.address() as AddressInfo).port}/acme/rules`, { credentials: null });
    try {
      expect(await client.hasBlob(`sha256:${'a'.repeat(64)}`)).toBe(true);
      expect(await client.headManifest('index')).toBe(`sha256:${'a'.repeat(64)}`);
    } finally {
      client.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
