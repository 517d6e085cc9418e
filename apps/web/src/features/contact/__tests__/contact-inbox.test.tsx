import type { ContactMessage } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodiesOf, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ContactInbox } from '../components/contact-inbox';

const message = (n: number): ContactMessage => ({
  id: `m${n}`,
  name: `問合 ${n}郎`,
  email: `m${n}@example.jp`,
  category: 'サービスについて',
  message: `お問い合わせ本文${n}`,
  handled: false,
  createdAt: '2026-11-20T01:00:00.000Z',
});

/** `/contact/list` pages `messages` as the API does. */
const serveInbox = (messages: ContactMessage[]) =>
  serveApi({
    '/contact/list': ({
      page = 1,
      size = 50,
    }: {
      page?: number;
      size?: number;
    }) => ok(messages.slice((page - 1) * size, page * size)),
  });

describe('お問い合わせ (admin)', () => {
  it('reads older messages with もっと見る', async () => {
    const user = userEvent.setup();
    serveInbox(Array.from({ length: 70 }, (_, i) => message(i + 1)));
    renderWithProviders(<ContactInbox />);
    const items = () => screen.getAllByRole('article');
    await waitFor(() => expect(items()).toHaveLength(50));
    expect(bodiesOf('/contact/list')).toEqual([
      { handled: false, page: 1, size: 50 },
    ]);
    await user.click(screen.getByRole('button', { name: 'もっと見る' }));
    await waitFor(() => expect(items()).toHaveLength(70));
    expect(bodiesOf('/contact/list').at(-1)).toEqual({
      handled: false,
      page: 2,
      size: 50,
    });
    expect(screen.queryByRole('button', { name: 'もっと見る' })).toBeNull();
  });

  it('names each 対応済みにする by whose message it is', async () => {
    serveInbox([message(1), message(2)]);
    renderWithProviders(<ContactInbox />);
    const second = await screen.findByRole('article', { name: '問合 2郎 様' });
    expect(
      within(second).getByRole('button', { name: '対応済みにする' }),
    ).toHaveAccessibleDescription('問合 2郎 様');
  });
});
