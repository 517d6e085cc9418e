import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  OPENAPI_FILE,
  buildOpenApiDocument,
} from '../../scripts/openapi-document.js';

/** Where two JSON values first differ, as a path (`paths./api/news/read.post.summary`). */
function firstDifference(a: unknown, b: unknown, at = '$'): string | null {
  if (a === b) return null;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return at;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
  if (keys.join('\n') !== Object.keys(x).join('\n')) return `${at} (keys)`;
  for (const k of keys) {
    const found = firstDifference(x[k], y[k], `${at}.${k}`);
    if (found) return found;
  }
  return Object.keys(x).join('\n') === Object.keys(y).join('\n')
    ? null
    : `${at} (key order)`;
}

describe('docs/openapi.json', () => {
  it('is the API description the routes generate (run `npm run docs:api` after changing a route or schema)', async () => {
    const generated = await buildOpenApiDocument();
    // Compared as data, key order included, so Prettier's layout of the file doesn't matter.
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as unknown;
    const difference = firstDifference(committed, generated);
    assert.equal(
      difference,
      null,
      `docs/openapi.json is out of date (first difference at ${difference}): run \`npm run docs:api\` and commit the result`,
    );
  });
});
