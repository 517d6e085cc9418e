import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { makeStore } from '@/app/store';
import { scheduleSplashHide } from '@/components/splash';
import { startSession } from '@/features/auth/auth-session';
import { runtimeConfig } from '@/config/env';
import '@/styles/base.css';
import '@/styles/layout.css';
import '@/styles/components.css';
import '@/styles/pages.css';

const store = makeStore();
// Outside React so StrictMode's double effects cannot run the handshake twice.
startSession(store);
// Stripe and the payment components load only with a publishable key, and
// even the loader stays out of the first load.
if (runtimeConfig.stripePublishableKey) {
  const key = runtimeConfig.stripePublishableKey;
  void import('@/features/payment/stripe-loader').then((m) =>
    m.startPayments(key),
  );
}
// The service worker (offline app shell) registers after the first load.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    void import('@/pwa/register').then((m) => m.registerServiceWorker());
  });
}

// Inside the Capacitor shell the native bridge defines window.Capacitor before
// the app loads; the web never fetches the native wiring.
if ('Capacitor' in window) {
  void import('@/lib/native-shell').then((m) => m.setUpNativeShell());
}

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
}
scheduleSplashHide();
