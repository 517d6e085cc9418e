import { Provider } from 'react-redux';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ErrorAlert } from '@/components/error-alert';
import { GlobalSpinner } from '@/components/spinner';
import { UpdatePrompt } from '@/pwa/update-prompt';
import type { AppStore } from './store';

type AppProps = { store: AppStore; router: DataRouter };

export const App = ({ store, router }: AppProps) => (
  <Provider store={store}>
    <RouterProvider router={router} />
    <GlobalSpinner />
    <ErrorAlert />
    <UpdatePrompt />
  </Provider>
);
