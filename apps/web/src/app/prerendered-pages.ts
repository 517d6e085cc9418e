import { MEMBER_TAB_PATHS } from '@/components/member-tab-header';

/**
 * The pages besides the landing whose HTML the build writes into index.html
 * (vite-plugins/prerender.ts), one `<template>` each, for a visitor who opens
 * their address directly: boot/prerendered-page.ts puts the page's HTML in
 * place before any of the app's code has loaded, and the app hydrates it.
 * Only pages without parameters, whose first render needs no data. A form's
 * controls are disabled until the app has hydrated the page
 * (components/hydration-gate.tsx): what a visitor typed before would be lost,
 * and the browser could send the form itself.
 *
 * What the build cannot know (config/env.ts) is marked:
 * - `company`: the page shows the operator's details; its HTML, rendered
 *   with the defaults, is used only where the deployment keeps them (the
 *   demo's).
 * - `payment`: the page's terms depend on the payment mode; it is rendered
 *   once for each mode, and the one in force is used.
 * A unit test renders every page with other settings and checks that only
 * what is marked changes.
 */
export type PrerenderedPage = {
  path: string;
  company?: true;
  payment?: true;
};

export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { path: 'promenu', payment: true },
  { path: 'amateurmenu', payment: true },
  { path: 'event' },
  { path: 'about', company: true },
  { path: 'info' },
  { path: 'qa', payment: true },
  { path: 'terms', company: true, payment: true },
  { path: 'privacy', company: true, payment: true },
  { path: 'tokushoho', company: true, payment: true },
  { path: 'contact' },
  { path: 'auth' },
  { path: 'auth/register' },
  { path: 'auth/reset' },
];

/** How a page's template names the payment mode it was rendered for. */
export type PaymentMode = 'online' | 'at-course';

/**
 * The member tabs prerendered for a returning member
 * (`<template data-page="tabs/…" data-member>`): the tab as it shows while
 * the stored login is being confirmed, the member's header, the tab bar and
 * the tab's title block with a spinner under it
 * (app/routes/tabs/tabs-layout.tsx). public/deep-link.js puts it in place
 * for a stored login, and the app hydrates it.
 */
export const MEMBER_TABS: readonly string[] = MEMBER_TAB_PATHS.map((p) =>
  p.replace(/^\//, ''),
);
