import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import { tokenReceived } from '@/features/auth/auth-slice';
import { createLoginResult } from '@/testing/auth';
import {
  createMessage,
  messageKey as key,
  messageRange,
} from '@/testing/factories';
import { apiCalls, ok, serveOk } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { chatApi } from '../chat-api';
import { Conversation } from '../components/conversation';
import { PAGE_SIZE } from '../message-pages';

/** Any other call (the lesson, the members) finds nothing. */
const otherwise = () => ok([]);

/** Messages others sent, already read by u-1. */
const range = (from: number, to: number) =>
  messageRange(from, to, { readBy: ['u-1'] });

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  serveOk(
    {
      '/roundLesson/getMessage': (body: { before?: string }) =>
        body.before === key(51) ? range(41, 50) : range(51, 50 + PAGE_SIZE),
      '/roundLesson/message': (body: { msg: string }) =>
        createMessage(200, { sender: 'u-1', msg: body.msg, readBy: [] }),
      '/roundLesson/messageReaded': () => ({ updatedCount: 1 }),
    },
    otherwise,
  );
});
afterEach(() => vi.unstubAllGlobals());

const items = () =>
  within(screen.getByRole('log', { name: 'メッセージ' })).getAllByRole(
    'listitem',
  );

describe('Conversation', () => {
  it('shows the newest page, loads older ones with もっと見る and adds what is sent', async () => {
    const user = userEvent.setup();
    const store = makeStore();
    store.dispatch(tokenReceived(createLoginResult()));
    renderWithProviders(<Conversation partitionKey="L1" userId="u-1" />, {
      store,
    });
    await screen.findByText('メッセージ51');
    expect(screen.getByText(`メッセージ${50 + PAGE_SIZE}`)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'もっと見る' }));
    await screen.findByText('メッセージ41');
    expect(apiCalls.at(-1)?.body).toEqual({
      partitionKey: 'L1',
      before: key(51),
      size: PAGE_SIZE,
    });
    // The older page was short: nothing more to load.
    expect(screen.queryByRole('button', { name: 'もっと見る' })).toBeNull();
    // Oldest first, across both pages.
    const texts = items()
      .map((li) => li.textContent ?? '')
      .filter((t) => t.includes('メッセージ'));
    expect(texts).toHaveLength(10 + PAGE_SIZE);
    expect(texts[0]).toContain('メッセージ41');
    expect(texts.at(-1)).toContain(`メッセージ${50 + PAGE_SIZE}`);

    const box = screen.getByRole('textbox', { name: 'メッセージ' });
    await user.type(box, 'よろしくお願いします');
    await user.click(screen.getByRole('button', { name: '送信' }));
    await screen.findByText('よろしくお願いします');
    await waitFor(() => expect(box).toHaveValue(''));
  });

  it("marks others' messages read, and the cache records it", async () => {
    serveOk(
      {
        '/roundLesson/getMessage': () => [createMessage(1)],
        '/roundLesson/messageReaded': () => ({ updatedCount: 1 }),
      },
      otherwise,
    );
    const store = makeStore();
    store.dispatch(tokenReceived(createLoginResult()));
    renderWithProviders(<Conversation partitionKey="L1" userId="u-1" />, {
      store,
    });
    await screen.findByText('メッセージ1');
    await waitFor(() =>
      expect(
        chatApi.endpoints.getMessages.select('L1')(store.getState()).data
          ?.pages[0]?.messages[0]?.readBy,
      ).toEqual(['u-1']),
    );
    expect(
      apiCalls.find((s) => s.path === '/roundLesson/messageReaded')?.body,
    ).toEqual({ userId: 'u-1', msgIdList: [key(1)] });
  });
});
