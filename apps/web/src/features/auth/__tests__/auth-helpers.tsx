import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { makeStore } from '@/app/store';
import { ok, serveInOrder, type Route as ApiRoute } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { RegisterForm } from '../components/register-form';
import { RequireLogin } from '../components/require-login';

/** A member page behind RequireLogin at `route`, with a stand-in login form at /auth. */
export const renderMemberPage = (route: string, store = makeStore()) =>
  renderWithProviders(
    <Routes>
      <Route
        path={route}
        element={
          <RequireLogin>
            <p>会員ページの中身</p>
          </RequireLogin>
        }
      />
      <Route path="/auth" element={<p>ログインフォーム</p>} />
    </Routes>,
    { store, route },
  );

/** The form control labelled `label` (the label text includes 必須/任意). */
export const field = (label: RegExp) =>
  screen.getByLabelText(label, { selector: 'input, select' });
export const findField = (label: RegExp) =>
  screen.findByLabelText(label, { selector: 'input, select' });

/** The registration form, whose code is sent and whose `/user/create` answers with `create`. */
export const renderRegistration = (create: ApiRoute) => {
  serveInOrder(() => ok({ sent: true }), create);
  const user = userEvent.setup();
  return { user, ...renderWithProviders(<RegisterForm />) };
};

/** Steps 1 and 2: the address, then `code`. */
export const passMailAndCode = async (
  user: ReturnType<typeof userEvent.setup>,
  code = '123456',
) => {
  await user.type(field(/メールアドレス/), 'new@example.jp');
  await user.click(screen.getByRole('button', { name: '認証コードを送信' }));
  await user.type(await findField(/認証コード/), code);
  await user.click(screen.getByRole('button', { name: '次へ' }));
};
