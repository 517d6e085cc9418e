import type { ComponentType } from 'react';
import { createHashRouter, type RouteObject } from 'react-router';
import { RootError, RootFallback, RootLayout } from './root-layout';

type RouteModule = { default: ComponentType };

/** Each page is its own chunk, fetched when first visited. */
const page = (load: () => Promise<RouteModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: RootFallback,
    ErrorBoundary: RootError,
    children: [
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
      {
        path: 'checkin/:ticket',
        ...page(() => import('./routes/checkin/checkin')),
      },
      { path: '*', ...page(() => import('./routes/public/not-found')) },
    ],
  },
];

export const router = createHashRouter(routes);
