/** The built-in policy is trusted at run time (not schema-checked there), so it is checked here. */
import { describe, expect, it } from 'vitest';
import { builtInPolicy } from '../../src/config/load-policy.js';
import { readPackageFile, readPackageJson } from '../../src/config/package-files.js';
import { validatePolicy } from '../../src/config/validate-policy.js';

describe('policies/default.yaml', () => {
  it('validates against schemas/policy.schema.json with no finding', () => {
    const checked = validatePolicy('policies/default.yaml', readPackageFile('policies/default.yaml'), null, readPackageJson('schemas/policy.schema.json'));
    expect(checked.diagnostics).toEqual([]);
    expect(checked.value).not.toBeNull();
  });

  it('is what a build runs with: the same value the schema check accepts', () => {
    const checked = validatePolicy('policies/default.yaml', readPackageFile('policies/default.yaml'), null, readPackageJson('schemas/policy.schema.json'));
    expect(builtInPolicy()).toEqual(checked.value);
  });
});
