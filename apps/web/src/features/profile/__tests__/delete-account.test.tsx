import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodiesOf, ng, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { DeleteAccount } from '../components/delete-account';

const KEPT =
  '予約の入っている今後のレッスン、またはオンライン決済のあったレッスンがあるため、退会できません。今後のレッスンを中止してから、もう一度お試しください。オンライン決済のあったレッスンがある場合は、お問い合わせからご連絡ください。';

/** Opens 退会の確認, types the password and confirms. */
const tryToLeave = async (password: string) => {
  const user = userEvent.setup();
  renderWithProviders(<DeleteAccount email="pro1@example.jp" />);
  await user.click(screen.getByRole('button', { name: '退会する' }));
  const dialog = screen.getByRole('dialog', { name: '退会の確認' });
  const field = within(dialog).getByLabelText(/パスワード/, {
    selector: 'input',
  });
  await user.type(field, password);
  await user.click(within(dialog).getByRole('button', { name: '退会する' }));
  return { dialog, field };
};

describe('退会', () => {
  it('explains a pro whose lessons keep the account (409), not as a wrong password, and keeps what was typed', async () => {
    serveApi({ '/auth/delete': () => ng('Conflict') });
    const { dialog, field } = await tryToLeave('proam-demo-2026');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(KEPT);
    expect(within(dialog).queryByText(/パスワードをご確認ください/)).toBeNull();
    expect(field).not.toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('proam-demo-2026');
    expect(bodiesOf('/auth/delete')).toEqual([
      { email: 'pro1@example.jp', password: 'proam-demo-2026' },
    ]);
  });

  it('marks the password when it is wrong', async () => {
    serveApi({ '/auth/delete': () => ng('InvalidCredentials') });
    const { dialog, field } = await tryToLeave('not-my-password');
    expect(
      await within(dialog).findByText(
        '退会できませんでした。パスワードをご確認ください。',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(KEPT)).toBeNull();
    expect(field).toHaveValue('not-my-password');
  });
});
