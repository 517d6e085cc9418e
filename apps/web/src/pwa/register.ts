import { registerSW } from 'virtual:pwa-register';
import { announceUpdate } from './update-events';

/**
 * Registers the service worker that caches the app shell (vite-plugin-pwa,
 * from this module rather than an inline script, for the CSP). A new version
 * waits until the person accepts the update prompt.
 */
export const registerServiceWorker = (): void => {
  const updateSW = registerSW({
    onNeedRefresh: () => announceUpdate(() => updateSW(true)),
  });
};
