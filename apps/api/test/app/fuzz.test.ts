import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ERRORS } from '@proam/contract';
import { harness, memberTokens, type Harness } from '../helper.js';

/**
 * Property-based requests derived from each route's contract schema (the
 * Schemathesis checks, docs/security.md IV-01/02/03): wrong types, boundaries,
 * unknown fields, NUL and lone surrogates, huge strings, duplicated query
 * keys. Every answer must be an OK or NG envelope, never a 5xx.
 * FUZZ_RUNS sets the number of requests (npm test: 1500; the figure: 10000).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};

const nasty = fc.constantFrom(
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '   ',
  '',
  '../../etc/passwd',
  '%00',
  "' OR 1=1--",
  '<script>alert(1)</script>',
  '\r\nBcc: x@example.jp',
  'ｐａｓｓ',
  '𠮷野家',
);

function arb(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.anything({ maxDepth: 2 });
  const wrong = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.boolean(),
    fc.string(),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.object({ maxDepth: 1 }),
  );
  if (schema.anyOf)
    return fc.oneof(...schema.anyOf.map((s) => arb(s, depth + 1)), wrong);
  if (schema.enum)
    return fc.oneof(
      fc.constantFrom(...schema.enum),
      fc.string({ maxLength: 12 }),
      wrong,
    );
  if (schema.const !== undefined)
    return fc.oneof(fc.constant(schema.const), wrong);
  switch (schema.type) {
    case 'string': {
      const max = schema.maxLength ?? 50;
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.string({
            minLength: schema.minLength ?? 0,
            maxLength: Math.min(max, 60),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }),
        },
        {
          weight: 1,
          arbitrary: fc.constant('あ'.repeat(Math.min(max + 1, 300_000))),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '2026-12-01',
            '2026-02-30',
            '09:00',
            '25:61',
            'ama1@example.jp',
            'not-an-email',
            '01M829PAFHDH7MHQ9W37RWG86Y',
            `users/01M829PAFHDH7MHQ9W37RWG86Y/${'a'.repeat(20)}.png`,
          ),
        },
        { weight: 2, arbitrary: nasty },
        { weight: 1, arbitrary: wrong },
      );
    }
    case 'integer':
    case 'number':
      return fc.oneof(
        fc.integer(),
        fc.constantFrom(
          schema.minimum ?? 0,
          (schema.minimum ?? 0) - 1,
          schema.maximum ?? 100,
          (schema.maximum ?? 100) + 1,
          0,
          -1,
          2 ** 31,
          Number.MAX_SAFE_INTEGER,
        ),
        fc.double(),
        fc.constant('1'),
        wrong,
      );
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constant('true'), wrong);
    case 'array':
      return fc.oneof(
        fc.array(arb(schema.items, depth + 1), {
          maxLength: Math.min((schema.maxItems ?? 5) + 2, 120),
        }),
        wrong,
      );
    case 'object': {
      const props = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(
          Object.entries(props).map(([k, v]) => [k, arb(v, depth + 1)]),
        ),
        { requiredKeys: [] },
      );
      return fc.oneof(
        { weight: 5, arbitrary: record },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              record,
              fc.string({ minLength: 1, maxLength: 10 }),
              fc.anything({ maxDepth: 1 }),
            )
            .map(([o, k, v]) => ({ ...o, [k]: v })),
        },
        { weight: 1, arbitrary: wrong },
      );
    }
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

type Route = { url: string; method: string; schema?: { body?: JsonSchema } };

describe('fuzzing every route from its contract schema', () => {
  let h: Harness;
  const routes: Route[] = [];
  const auths: (Record<string, string> | undefined)[] = [];
  before(async () => {
    h = await harness(
      'pglite',
      {},
      { onRoute: (r: Route) => void routes.push(r) },
    );
    const { tok } = await memberTokens(h);
    auths.push(
      undefined,
      { authorization: `Bearer ${tok.ama1}` },
      { authorization: `Bearer ${tok.pro1}` },
      { authorization: `Bearer ${tok.admin}` },
      {
        authorization: `Basic ${Buffer.from('web:proam-web-dev').toString('base64')}`,
      },
      { authorization: 'Bearer garbage.token.here' },
    );
  });
  after(() => h.close());

  it(`answers ${RUNS} generated requests with valid envelopes and no 5xx`, async () => {
    const api = routes.filter(
      (r) => r.method === 'POST' && r.url.startsWith('/api/'),
    );
    assert.ok(api.length > 40);
    const codes = new Set(Object.keys(ERRORS));
    const seen = { ok: 0, ng: 0 };
    const request = fc
      .record({
        route: fc.constantFrom(...api),
        auth: fc.constantFrom(...auths),
        asQuery: fc.integer({ min: 0, max: 5 }),
        dupKey: fc.boolean(),
      })
      .chain((r) => arb(r.route.schema?.body).map((body) => ({ ...r, body })));

    await fc.assert(
      fc.asyncProperty(request, async ({ route, auth, asQuery, body }) => {
        let url = route.url;
        let payload: string | undefined = JSON.stringify(body);
        if (
          asQuery === 0 &&
          body &&
          typeof body === 'object' &&
          !Array.isArray(body)
        ) {
          // The same input as a query string, with a duplicated key now and then.
          const qs = new URLSearchParams();
          for (const [k, v] of Object.entries(body))
            qs.append(k, typeof v === 'string' ? v : JSON.stringify(v));
          const first = [...qs.keys()][0];
          if (first) qs.append(first, 'dup');
          url = `${url}?${qs.toString()}`;
          payload = undefined;
        }
        const res = await h.app.inject({
          method: 'POST',
          url,
          headers: {
            ...(payload !== undefined
              ? { 'content-type': 'application/json' }
              : {}),
            ...auth,
          },
          ...(payload !== undefined ? { payload } : {}),
          remoteAddress: `127.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        });
        assert.ok(
          res.statusCode < 500,
          `${route.url} ${res.statusCode} ${res.body.slice(0, 200)} for ${payload?.slice(0, 200) ?? url}`,
        );
        if (route.url === '/api/punchout/setup') {
          // cXML, not the JSON envelope: a refusal is a cXML Status.
          assert.match(res.body, /<Status code="[0-9]{3}"|"status":"NG"/);
          seen.ng++;
          return;
        }
        const json = res.json<{
          status: string;
          code?: string;
          reqId?: string;
          msg?: string;
        }>();
        if (json.status === 'OK') {
          assert.equal(res.statusCode, 200);
          seen.ok++;
        } else {
          assert.equal(json.status, 'NG');
          assert.ok(codes.has(json.code!), json.code);
          assert.equal(typeof json.msg, 'string');
          assert.ok(json.reqId);
          seen.ng++;
        }
      }),
      { numRuns: RUNS },
    );
    assert.equal(seen.ok + seen.ng, RUNS);
  });
});
