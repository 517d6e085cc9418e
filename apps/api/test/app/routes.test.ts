import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from '../helper.js';

/** Every call of docs/api.md (section "Calls"); the punch-out calls come with the check-in issue. */
const SPEC_PATHS = [
  '/auth/code',
  '/auth/code/reset',
  '/auth/update',
  '/auth/login',
  '/auth/delete',
  '/auth/handshake',
  '/auth/refresh',
  '/auth/logout',
  '/user/create',
  '/user/read',
  '/user/update',
  '/user/getByIdList',
  '/user/updateImageInfo',
  '/users/amature/all',
  '/users/amature/newer',
  '/users/pro/all',
  '/users/pro/condition',
  '/user/like',
  '/user/likeCount',
  '/user/likeCreate',
  '/user/likeDelete',
  '/schedule/getById',
  '/schedule/getActive',
  '/schedule/getByDate',
  '/schedule/create',
  '/schedule/update',
  '/schedule/updateRound',
  '/schedule/reserve',
  '/schedule/cancel',
  '/schedule/delete',
  '/roundLesson/message',
  '/roundLesson/getMessage',
  '/roundLesson/messageReaded',
  '/notification/unstepRoundLesson',
  '/competition/read',
  '/competition/create',
  '/competition/update',
  '/competition/delete',
  '/storage/upload',
  '/storage/update',
  '/storage/delete',
  '/news/read',
  '/news/readAll',
  '/news/create',
  '/news/update',
  '/news/delete',
  '/contact/create',
];

type RouteInfo = {
  method: string | string[];
  url: string;
  config?: { auth?: string };
  schema?: { response?: Record<string, unknown> };
};

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
