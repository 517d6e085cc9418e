import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { makeStore, type AppStore } from '@/app/store';

type Options = { route?: string; path?: string; store?: AppStore };

/** Renders a component or route module with a fresh store and an in-memory router. */
export const renderWithProviders = (
  ui: ReactElement,
  { route = '/', path, store = makeStore() }: Options = {},
) => {
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]}>
        {path ? (
          <Routes>
            <Route path={path} element={ui} />
          </Routes>
        ) : (
          ui
        )}
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...result };
};

type JsonInit = { status?: number; headers?: Record<string, string> };

export const jsonResponse = (
  body: unknown,
  { status = 200, headers = {} }: JsonInit = {},
) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

export const okEnvelope = (body: unknown) =>
  jsonResponse({ status: 'OK', reqId: 'req-ok', body });
