import { Provider } from 'react-redux';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ErrorAlert } from '@/components/error-alert';
import { GlobalSpinner } from '@/components/spinner';
import { UpdatePrompt } from '@/pwa/update-prompt';
import type { AppStore, RootState } from './store';

type AppProps = {
  store: AppStore;
  router: DataRouter;
  /**
   * The state prerendered HTML was rendered with, when the app hydrates it:
   * the hydrating render reads it rather than the store, which may have
   * moved on meanwhile (a stored login confirmed, a call in flight).
   */
  serverState?: RootState;
};

export const App = ({ store, router, serverState }: AppProps) => (
  <Provider store={store} serverState={serverState}>
    <RouterProvider router={router} />
    <GlobalSpinner />
    <ErrorAlert />
    <UpdatePrompt />
  </Provider>
);
