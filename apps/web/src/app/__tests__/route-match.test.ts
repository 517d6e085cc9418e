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
  it('reads the router path from the hash', () => {
    expect(hashPath('')).toBe('');
    expect(hashPath('#/')).toBe('');
    expect(hashPath('#/info/12?x=1')).toBe('info/12');
    expect(hashPath('#/tabs/chat/')).toBe('tabs/chat');
  });

  it('matches pages as the router does', () => {
    expect(chain('')).toEqual(['(index)']);
    expect(chain('about')).toEqual(['about']);
    expect(chain('info')).toEqual(['info']);
    expect(chain('info/01ABC')).toEqual(['info/:id']);
    expect(chain('auth/register')).toEqual(['auth/register']);
    expect(chain('tabs')).toEqual(['tabs', '(index)']);
    expect(chain('tabs/chat/room-1')).toEqual(['tabs', 'chat/:partitionKey']);
    expect(chain('tabs/schedule/pro/p1')).toEqual([
      'tabs',
      'schedule/pro/:proId',
    ]);
    // The member pages outside the tabs sit under a pathless layout.
    expect(chain('payment/s1')).toEqual(['', 'payment/:scheduleId']);
    expect(chain('receipt/r1')).toEqual(['', 'receipt/:reservationId']);
    expect(chain('sales')).toEqual(['', 'sales']);
    expect(chain('sales/extra')).toEqual(['*']);
    expect(chain('no/such/page')).toEqual(['*']);
    expect(chain('about/extra')).toEqual(['*']);
  });

  it('reads the parameters', () => {
    expect(matchRouteChain(pageRoutes, 'info/01ABC').params).toEqual({
      id: '01ABC',
    });
    expect(matchRouteChain(pageRoutes, 'tabs/chat/a%20b').params).toEqual({
      partitionKey: 'a b',
    });
    expect(matchRouteChain(pageRoutes, 'about').params).toEqual({});
    expect(matchRouteChain(pageRoutes, 'receipt/01KPAY').params).toEqual({
      reservationId: '01KPAY',
    });
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
