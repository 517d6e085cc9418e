import { createHashRouter, type RouteObject } from 'react-router';
import { RootError, RootFallback, RootLayout } from './root-layout';
import { pageRoutes } from './route-table';

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: RootFallback,
    ErrorBoundary: RootError,
    children: pageRoutes,
  },
];

type RouterOptions = Parameters<typeof createHashRouter>[1];

/**
 * The app's router, made on demand so the entry can load the first page's
 * code before it. The prerender passes a stand-in window (see prerender.tsx).
 */
export const createAppRouter = (options?: RouterOptions) =>
  createHashRouter(routes, options);
