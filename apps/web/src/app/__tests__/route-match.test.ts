import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { hashPath, loadRouteChain, matchRouteChain } from '../route-match';
import { pageRoutes } from '../route-table';

/** The matched chain as the patterns it went through. */
const chain = (path: string) =>
  matchRouteChain(pageRoutes, path).routes.map((r) =>
    r.index ? '(index)' : (r.path ?? ''),
  );

describe('route matching at start-up', () => {
  it.each([
    ['', ''],
    ['#/', ''],
    ['#/info/12?x=1', 'info/12'],
    ['#/tabs/chat/', 'tabs/chat'],
  ])('reads the router path from the hash %j', (hash, path) => {
    expect(hashPath(hash)).toBe(path);
  });

  it.each([
    ['', ['(index)']],
    ['about', ['about']],
    ['info', ['info']],
    ['info/01ABC', ['info/:id']],
    ['auth/register', ['auth/register']],
    ['tabs', ['tabs', '(index)']],
    ['tabs/chat/room-1', ['tabs', 'chat/:partitionKey']],
    ['tabs/schedule/pro/p1', ['tabs', 'schedule/pro/:proId']],
    // The member pages outside the tabs sit under a pathless layout.
    ['payment/s1', ['', 'payment/:scheduleId']],
    ['receipt/r1', ['', 'receipt/:reservationId']],
    ['sales', ['', 'sales']],
    ['sales/extra', ['*']],
    ['no/such/page', ['*']],
    ['about/extra', ['*']],
  ])('matches the page %j as the router does', (path, patterns) => {
    expect(chain(path)).toEqual(patterns);
  });

  it.each([
    ['info/01ABC', { id: '01ABC' }],
    ['tabs/chat/a%20b', { partitionKey: 'a b' }],
    ['about', {}],
    ['receipt/01KPAY', { reservationId: '01KPAY' }],
  ])('reads the parameters of %j', (path, params) => {
    expect(matchRouteChain(pageRoutes, path).params).toEqual(params);
  });

  it('carries a page module’s prefetch in the route handle', async () => {
    const info = matchRouteChain(pageRoutes, 'info/01ABC');
    await loadRouteChain(info);
    const handle = info.routes[0]?.handle as { prefetch?: unknown } | undefined;
    expect(typeof handle?.prefetch).toBe('function');
  });

  it('loads the matched lazy routes into the route objects', async () => {
    const Page = () => null;
    const route: RouteObject = {
      path: 'x',
      lazy: async () => ({ Component: Page }),
    };
    await loadRouteChain(matchRouteChain([route], 'x'));
    expect(route.Component).toBe(Page);
    expect(route.lazy).toBeUndefined();
  });
});
