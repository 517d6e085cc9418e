import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import { ErrorAlert } from '@/components/error-alert';
import { GlobalSpinner } from '@/components/spinner';
import { UpdatePrompt } from '@/pwa/update-prompt';
import { router } from './router';
import type { AppStore } from './store';

type AppProps = { store: AppStore };

export const App = ({ store }: AppProps) => (
  <Provider store={store}>
    <RouterProvider router={router} />
    <GlobalSpinner />
    <ErrorAlert />
    <UpdatePrompt />
  </Provider>
);
