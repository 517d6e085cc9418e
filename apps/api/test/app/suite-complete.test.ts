import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const TEST_DIR = path.resolve(import.meta.dirname, '..');

describe('the API test suite', () => {
  it('imports every test file in test/all.test.ts (npm test runs only that file)', () => {
    const all = readFileSync(path.join(TEST_DIR, 'all.test.ts'), 'utf8');
    const files = readdirSync(TEST_DIR, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.test.ts') && f !== 'all.test.ts')
      .map((f) => `./${f.split(path.sep).join('/').replace(/\.ts$/, '.js')}`);
    assert.ok(files.length > 30, `found ${files.length} test files`);
    const missing = files.filter((f) => !all.includes(`'${f}'`));
    assert.deepEqual(missing, []);
  });
});
