import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApiTypes, SCHEMA_FILE, servedOpenApi } from '../../control-plane/scripts/api-types.js';

describe('the typed client', () => {
  it('checked-in types are what `npm run generate:api` makes from the served OpenAPI document now', async () => {
    const now = await renderApiTypes(await servedOpenApi());
    // Not toEqual: a diff of 8,000 lines helps no one; the fix is one command.
    expect(
      now === readFileSync(SCHEMA_FILE, 'utf8'),
      'run `npm run generate:api` and commit the result',
    ).toBe(true);
  });
});
