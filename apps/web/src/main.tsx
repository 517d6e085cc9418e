import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { makeStore } from '@/app/store';
import { scheduleSplashHide } from '@/components/splash';
import { startSession } from '@/features/auth/auth-session';
import '@/styles/base.css';
import '@/styles/layout.css';
import '@/styles/components.css';
import '@/styles/pages.css';

const store = makeStore();
// Outside React so StrictMode's double effects cannot run the handshake twice.
startSession(store);

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
}
scheduleSplashHide();
