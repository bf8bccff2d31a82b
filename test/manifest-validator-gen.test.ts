/**
 * The manifest validator is ajv's standalone code generated from the schema
 * (scripts/gen-validators.mjs): it must be what the script generates now, and
 * it must refuse what the schema refuses.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifestRoot } from '../src/bundle/parse-manifest.js';

const ROOT = join(import.meta.dirname, '..');

describe('the generated manifest validator', () => {
  it('is current with schemas/manifest.schema.json', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'gen-validators.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('refuses a manifest that misses a required field, naming it', () => {
    const r = parseManifestRoot('{"schema":"https://rulec.dev/schemas/manifest-v3.json"}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.message).toMatch(/RC7003|must have required property/);
  });
});
