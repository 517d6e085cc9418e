// The lint rules that guard the architecture must be able to fail: each is
// shown code that breaks it (run by `npm run lint`). The code is linted as the
// text of an existing file: the type-aware rules only read files the
// TypeScript project knows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
const messages = async (code, filePath) => {
  const [result] = await eslint.lintText(code, { filePath });
  const fatal = result.messages.find((m) => m.fatal);
  assert.equal(fatal, undefined, fatal?.message);
  return result.messages.map((m) => m.ruleId);
};
const RESTRICTED = '@typescript-eslint/no-restricted-imports';

const NEWS = 'apps/web/src/features/news/news-body.ts';
const COMPONENT = 'apps/web/src/components/logo.tsx';
const ROUTE = 'apps/api/src/routes/news.ts';
const REPOSITORY = 'apps/api/src/repositories/news-repository.ts';
const LIB = 'apps/api/src/lib/ids.ts';

describe('lint rules', () => {
  it('opens PGlite only through db/pglite.ts, which loads its extensions', async () => {
    const code =
      "import { PGlite } from '@electric-sql/pglite';\nexport const open = () => new PGlite();\n";
    assert.ok(
      (await messages(code, REPOSITORY)).includes('no-restricted-imports'),
    );
    assert.ok(
      (await messages(code, 'bench/run.ts')).includes('no-restricted-imports'),
    );
    const contrib =
      "import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';\nexport const e = pg_trgm;\n";
    assert.ok((await messages(contrib, LIB)).includes('no-restricted-imports'));
    assert.ok(
      !(await messages(code, 'apps/api/src/db/pglite.ts')).includes(
        'no-restricted-imports',
      ),
    );
  });

  it('keeps import.meta inside src/config/env.ts', async () => {
    const code = 'export const key = import.meta.env.VITE_KEY;\n';
    assert.ok((await messages(code, NEWS)).includes('no-restricted-syntax'));
    assert.ok(
      !(await messages(code, 'apps/web/src/config/env.ts')).includes(
        'no-restricted-syntax',
      ),
    );
  });

  it('keeps Intl (and the ICU data it loads) out of the web app', async () => {
    for (const code of [
      "export const fee = (n: number) => n.toLocaleString('ja-JP');\n",
      'export const day = (d: Date) => d.toLocaleDateString();\n',
      'export const order = (a: string, b: string) => a.localeCompare(b);\n',
      "export const f = new Intl.NumberFormat('ja-JP');\n",
      "export const fee = (n: number) => n['toLocaleString']();\n",
      'export const fee = (n: number) => Number.prototype.toLocaleString.call(n);\n',
      'export const order = (a: string, b: string) => String.prototype.localeCompare.call(a, b);\n',
      'const { NumberFormat } = Intl;\nexport const f = new NumberFormat();\n',
      'export const f = new globalThis.Intl.NumberFormat();\n',
    ])
      assert.ok(
        (await messages(code, NEWS)).includes('no-restricted-syntax'),
        code,
      );
    for (const code of [
      "import { groupDigits } from '@/lib/format';\nexport const fee = (n: number) => groupDigits(n);\n",
      // Intl's types are not its data: allowed.
      'export type Options = Intl.NumberFormatOptions;\n',
    ])
      assert.ok(
        !(await messages(code, NEWS)).includes('no-restricted-syntax'),
        code,
      );
  });

  it("refuses another feature's internals and allows its -api endpoints", async () => {
    const internal =
      "import { ChatList } from '@/features/chat/components/chat-list';\nexport const c = ChatList;\n";
    assert.ok((await messages(internal, NEWS)).includes(RESTRICTED));
    const endpoints =
      "import { chatApi } from '@/features/chat/chat-api';\nexport const c = chatApi;\n";
    assert.ok(!(await messages(endpoints, NEWS)).includes(RESTRICTED));
  });

  it('keeps app/ above features and shared code', async () => {
    const code =
      "import { RootLayout } from '@/app/root-layout';\nexport const c = RootLayout;\n";
    assert.ok((await messages(code, NEWS)).includes(RESTRICTED));
    assert.ok((await messages(code, COMPONENT)).includes(RESTRICTED));
    // Types of the store are erased: allowed.
    const types =
      "import type { RootState } from '@/app/store';\nexport type S = RootState;\n";
    assert.ok(!(await messages(types, NEWS)).includes(RESTRICTED));
  });

  it('keeps components/, hooks/ and lib/ free of features', async () => {
    const code =
      "import { newsApi } from '@/features/news/news-api';\nexport const c = newsApi;\n";
    assert.ok((await messages(code, COMPONENT)).includes(RESTRICTED));
  });

  it('lets only repositories speak SQL in the API', async () => {
    const schema =
      "import { news } from '../db/schema.js';\nexport const t = news;\n";
    assert.ok((await messages(schema, ROUTE)).includes(RESTRICTED));
    const orm = "import { eq } from 'drizzle-orm';\nexport const f = eq;\n";
    assert.ok((await messages(orm, ROUTE)).includes(RESTRICTED));
    assert.ok(!(await messages(schema, REPOSITORY)).includes(RESTRICTED));
  });

  it('keeps repositories and lib/ below routes and plugins', async () => {
    const code =
      "import { newsRoutes } from '../routes/news.js';\nexport const r = newsRoutes;\n";
    assert.ok((await messages(code, REPOSITORY)).includes(RESTRICTED));
    assert.ok((await messages(code, LIB)).includes(RESTRICTED));
  });

  it('keeps db/ below the repositories', async () => {
    const code =
      "import { likePattern } from '../repositories/queries.js';\nexport const p = likePattern;\n";
    assert.ok(
      (await messages(code, 'apps/api/src/db/seed.ts')).includes(RESTRICTED),
    );
  });

  it('checks types: a floating promise is an error', async () => {
    const code = 'export function f(): void {\n  Promise.resolve(1);\n}\n';
    assert.ok(
      (await messages(code, LIB)).includes(
        '@typescript-eslint/no-floating-promises',
      ),
    );
  });
});
