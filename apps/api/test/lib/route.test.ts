import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { newId } from '../../src/lib/ids.js';
import { defineRoute } from '../../src/lib/route.js';

const Item = Type.Object({ id: Type.String(), title: Type.String() });

/** Two routes answering the same kept objects, one of them serialising each once. */
const appWith = async (kept: { list: object[]; one: object | null }) => {
  const app = Fastify({ genReqId: () => newId() });
  app.decorate('authenticate', () => Promise.resolve(null));
  const answers = [
    { name: 'list', output: Type.Array(Item), answer: () => kept.list },
    {
      name: 'one',
      output: Type.Union([Item, Type.Null()]),
      answer: () => kept.one,
    },
  ];
  for (const cachedAnswers of [false, true])
    for (const { name, output, answer } of answers)
      defineRoute(app, {
        path: `/${cachedAnswers ? 'kept' : 'plain'}/${name}`,
        auth: 'none',
        summary: name,
        tags: [],
        input: Type.Object({}),
        output,
        cachedAnswers,
        handler: () => Promise.resolve(answer() as never),
      });
  await app.ready();
  return app;
};

const post = async (app: Awaited<ReturnType<typeof appWith>>, url: string) => {
  const res = await app.inject({
    method: 'POST',
    url: `/api${url}`,
    headers: { 'content-type': 'application/json' },
    payload: '{}',
  });
  return { res, reqId: (res.json() as { reqId: string }).reqId };
};

describe('routes whose answers a cache keeps', () => {
  it('answer the same bytes as the schema writes them, with each call’s own reqId', async () => {
    const kept = {
      // `extra` is not in the schema: neither path may write it.
      list: [
        { id: 'a', title: '府中のレッスン "引用" \\ と改行\n', extra: 1 },
        { id: 'b', title: '𠮷野家カップ' },
      ],
      one: { id: 'c', title: 'お知らせ', extra: true },
    };
    const app = await appWith(kept);
    try {
      for (const path of ['/list', '/one']) {
        const plain = await post(app, `/plain${path}`);
        const first = await post(app, `/kept${path}`);
        const second = await post(app, `/kept${path}`);
        assert.notEqual(first.reqId, second.reqId);
        for (const kept of [first, second]) {
          assert.equal(kept.res.statusCode, 200);
          assert.equal(
            kept.res.headers['content-type'],
            plain.res.headers['content-type'],
          );
          assert.equal(
            kept.res.payload,
            plain.res.payload.replace(plain.reqId, kept.reqId),
          );
        }
        assert.doesNotMatch(first.res.payload, /extra/);
      }
    } finally {
      await app.close();
    }
  });

  it('reuse the bytes of an object already answered, and serialise a new object afresh', async () => {
    const kept = {
      list: [{ id: 'a', title: '最初の題' }],
      one: null as object | null,
    };
    const app = await appWith(kept);
    try {
      const body = async (url: string) =>
        (await post(app, url)).res.json() as { body: unknown };
      assert.deepEqual((await body('/kept/list')).body, kept.list);
      // A kept answer is never changed in place; changing it shows the bytes are reused.
      (kept.list[0] as { title: string }).title = '書き換えた題';
      assert.deepEqual((await body('/kept/list')).body, [
        { id: 'a', title: '最初の題' },
      ]);
      assert.deepEqual((await body('/plain/list')).body, [
        { id: 'a', title: '書き換えた題' },
      ]);
      kept.list = [{ id: 'b', title: '新しい題' }];
      assert.deepEqual((await body('/kept/list')).body, kept.list);
      assert.equal((await body('/kept/one')).body, null);
    } finally {
      await app.close();
    }
  });
});
