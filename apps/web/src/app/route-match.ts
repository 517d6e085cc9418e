import type { RouteObject } from 'react-router';

/** `#/info/3?x=1` → `info/3`: the router path the address shows. */
export const hashPath = (hash: string): string =>
  hash
    .replace(/^#/, '')
    .replace(/[?#].*$/, '')
    .replace(/^\/+|\/+$/g, '');

const segments = (p: string) => (p === '' ? [] : p.split('/'));

export type RouteChain = {
  /** The matched routes, outermost first. */
  routes: RouteObject[];
  /** The values of their `:param` segments. */
  params: Record<string, string>;
};

const matchHere = (
  routes: readonly RouteObject[],
  rest: readonly string[],
): RouteChain | null => {
  for (const route of routes) {
    if (route.index) {
      if (rest.length === 0) return { routes: [route], params: {} };
      continue;
    }
    if (route.path === undefined) {
      // A pathless layout route: its children match the same segments.
      const below = route.children && matchHere(route.children, rest);
      if (below)
        return { routes: [route, ...below.routes], params: below.params };
      continue;
    }
    if (route.path === '*') return { routes: [route], params: {} };
    const own = segments(route.path);
    if (own.length > rest.length) continue;
    const fits = own.every((s, i) => s.startsWith(':') || s === rest[i]);
    if (!fits) continue;
    const params: Record<string, string> = {};
    own.forEach((s, i) => {
      if (s.startsWith(':')) params[s.slice(1)] = decodeURIComponent(rest[i]!);
    });
    const remaining = rest.slice(own.length);
    if (route.children) {
      const below = matchHere(route.children, remaining);
      if (below)
        return {
          routes: [route, ...below.routes],
          params: { ...params, ...below.params },
        };
    } else if (remaining.length === 0) return { routes: [route], params };
  }
  return null;
};

/**
 * The routes that show `path` and their parameters, by the same rules as the
 * router for this table: static and `:param` segments, index routes, and `*`
 * for anything else. Enough to start loading a page early; the router itself
 * still decides what renders.
 */
export const matchRouteChain = (
  routes: readonly RouteObject[],
  path: string,
): RouteChain =>
  matchHere(routes, segments(path)) ?? { routes: [], params: {} };

/**
 * Loads the matched routes' lazy modules now and writes them into the route
 * objects, as the router would, so a router made afterwards renders the page
 * at once instead of a loading state first (and can hydrate prerendered HTML).
 */
export const loadRouteChain = ({ routes }: RouteChain): Promise<void> =>
  Promise.all(
    routes.map(async (route) => {
      const { lazy } = route;
      if (typeof lazy !== 'function') return;
      const loaded = await lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  ).then(() => undefined);
