import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from '../helper.js';
import { SPEC_PATHS, type RouteInfo } from '../support/routes.js';

describe('route inventory', () => {
  let h: Harness;
  const routes: RouteInfo[] = [];
  before(async () => {
    h = await harness(
      'pglite',
      {},
      {
        onRoute: (r: RouteInfo) => {
          routes.push(r);
        },
      },
    );
  });
  after(() => h.close());

  it('serves every call of docs/api.md as POST /api<path>', () => {
    const posts = new Set(
      routes.filter((r) => r.method === 'POST').map((r) => r.url),
    );
    for (const p of SPEC_PATHS) assert.ok(posts.has(`/api${p}`), p);
  });

  it('declares who may call every route (docs/security.md AU-08) and a response schema for every API call (AC-06)', () => {
    const api = routes.filter(
      (r) => r.url.startsWith('/api/') && r.method !== 'HEAD',
    );
    assert.ok(api.length >= SPEC_PATHS.length);
    for (const r of api) {
      assert.ok(
        ['none', 'optionalBearer', 'bearer', 'client', 'refresh'].includes(
          r.config?.auth ?? '',
        ),
        `${String(r.method)} ${r.url}`,
      );
      // The punch-out setup speaks cXML, not the JSON envelope.
      if (r.method === 'POST' && r.url !== '/api/punchout/setup')
        assert.ok(r.schema?.response?.['200'], `${r.url} has no 200 schema`);
    }
  });
});
