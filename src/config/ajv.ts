/**
 * ajv (draft 2020-12) with ajv-formats, loaded on first use: most runs check
 * no schema at all (no policy file, no frontmatter), and loading ajv is a
 * tenth of a second of a small build's start-up. Both packages are CommonJS,
 * so a synchronous require keeps every caller synchronous.
 */
import { createRequire } from 'node:module';
import type { Options } from 'ajv';
import type Ajv2020Module from 'ajv/dist/2020.js';

type Ajv2020 = InstanceType<typeof Ajv2020Module.default>;

let loaded: { Ajv: new (options: Options) => Ajv2020; addFormats: (ajv: Ajv2020) => void } | null = null;

/** A new ajv instance with the formats (date, uri …) registered. */
export function newAjv(options: Options): Ajv2020 {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const ajv = require('ajv/dist/2020.js') as { default?: unknown };
    const formats = require('ajv-formats') as { default?: unknown };
    loaded = {
      Ajv: (ajv.default ?? ajv) as new (options: Options) => Ajv2020,
      addFormats: (formats.default ?? formats) as (ajv: Ajv2020) => void,
    };
  }
  const instance = new loaded.Ajv(options);
  loaded.addFormats(instance);
  return instance;
}
