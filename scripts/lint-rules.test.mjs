// The lint rules that guard the architecture must be able to fail: each is
// shown a file that breaks it (run by `npm run lint`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
const messages = async (code, filePath) =>
  (await eslint.lintText(code, { filePath }))[0].messages.map((m) => m.ruleId);

describe('lint rules', () => {
  it('keeps import.meta inside src/config/env.ts', async () => {
    const code = 'export const key = import.meta.env.VITE_KEY;\n';
    assert.ok(
      (await messages(code, 'apps/web/src/features/news/probe.ts')).includes(
        'no-restricted-syntax',
      ),
    );
    assert.ok(
      !(await messages(code, 'apps/web/src/config/env.ts')).includes(
        'no-restricted-syntax',
      ),
    );
  });
});
