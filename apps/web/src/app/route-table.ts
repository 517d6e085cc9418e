import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RoutePrefetch } from './route-prefetch';

/** What a route module exports; `handle.prefetch` carries its prefetch. */
type RouteModule = { default: ComponentType; prefetch?: RoutePrefetch };

export type RouteHandle = { prefetch?: RoutePrefetch };

/** Each page is its own chunk, fetched when first visited. */
const page = (load: () => Promise<RouteModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const { default: Component, prefetch } = await load();
    const handle: RouteHandle = { prefetch };
    return { Component, handle };
  },
});

/**
 * The pages under the root layout. Kept apart from router.tsx, which pulls in
 * the layout and react-router, so the entry can match the address and start
 * fetching the page's chunk before any of that has loaded.
 */
export const pageRoutes: RouteObject[] = [
  { index: true, ...page(() => import('./routes/public/landing')) },
  { path: 'promenu', ...page(() => import('./routes/public/pro-menu')) },
  {
    path: 'amateurmenu',
    ...page(() => import('./routes/public/amateur-menu')),
  },
  { path: 'event', ...page(() => import('./routes/public/event')) },
  { path: 'about', ...page(() => import('./routes/public/about')) },
  { path: 'contact', ...page(() => import('./routes/public/contact')) },
  { path: 'info', ...page(() => import('./routes/public/info-list')) },
  {
    path: 'info/:id',
    ...page(() => import('./routes/public/info-detail')),
  },
  { path: 'qa', ...page(() => import('./routes/public/qa')) },
  { path: 'terms', ...page(() => import('./routes/public/terms')) },
  { path: 'privacy', ...page(() => import('./routes/public/privacy')) },
  { path: 'tokushoho', ...page(() => import('./routes/public/tokushoho')) },
  {
    path: 'campaignDetails/:id',
    ...page(() => import('./routes/public/campaign-details')),
  },
  { path: 'auth', ...page(() => import('./routes/auth/login')) },
  {
    path: 'auth/register',
    ...page(() => import('./routes/auth/register')),
  },
  { path: 'auth/reset', ...page(() => import('./routes/auth/reset')) },
  {
    path: 'tabs',
    ...page(() => import('./routes/tabs/tabs-layout')),
    children: [
      { index: true, ...page(() => import('./routes/tabs/tabs-index')) },
      { path: 'schedule', ...page(() => import('./routes/tabs/schedule')) },
      {
        path: 'schedule/pro/:proId',
        ...page(() => import('./routes/tabs/schedule-pro')),
      },
      { path: 'likes', ...page(() => import('./routes/tabs/likes')) },
      {
        path: 'likes/pro/:id',
        ...page(() => import('./routes/tabs/pro-profile')),
      },
      { path: 'chat', ...page(() => import('./routes/tabs/chat')) },
      {
        path: 'chat/:partitionKey',
        ...page(() => import('./routes/tabs/chat-room')),
      },
      {
        path: 'competitions',
        ...page(() => import('./routes/tabs/competitions')),
      },
      { path: 'admin', ...page(() => import('./routes/tabs/admin')) },
      { path: 'profile', ...page(() => import('./routes/tabs/profile')) },
    ],
  },
  // Member pages outside the tabs (mail links point at them: お支払い,
  // 領収書, 売上明細). A pathless layout gives them the member area's login
  // check and tab bar while keeping their short addresses.
  {
    ...page(() => import('./routes/tabs/tabs-layout')),
    children: [
      {
        path: 'payment/:scheduleId',
        ...page(() => import('./routes/member/payment')),
      },
      {
        path: 'receipt/:reservationId',
        ...page(() => import('./routes/member/receipt')),
      },
      { path: 'sales', ...page(() => import('./routes/member/sales')) },
    ],
  },
  {
    path: 'checkin/:ticket',
    ...page(() => import('./routes/checkin/checkin')),
  },
  { path: '*', ...page(() => import('./routes/public/not-found')) },
];
