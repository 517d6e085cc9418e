import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import {
  CONNECTION_MESSAGES,
  OfflineNotice,
} from '@/components/offline-notice';
import { createLoginResult } from '@/testing/auth';
import { okEnvelope, renderWithProviders } from '@/testing/render';
import { connectivityChanged, renewalFailed } from '../auth-slice';
import { renderMemberPage } from './auth-helpers';

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('offline notice', () => {
  it('keeps an empty status region while all is well', () => {
    renderWithProviders(<OfflineNotice problem={null} />);
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it.each(['offline', 'unavailable'] as const)(
    'says %s in its status region and offers 今すぐ再接続 when asked to',
    (problem) => {
      const onRetry = vi.fn();
      renderWithProviders(
        <OfflineNotice problem={problem} onRetry={onRetry} />,
      );
      expect(screen.getByRole('status')).toHaveTextContent(
        CONNECTION_MESSAGES[problem],
      );
      fireEvent.click(screen.getByRole('button', { name: '今すぐ再接続' }));
      expect(onRetry).toHaveBeenCalledTimes(1);
    },
  );

  it('has the agreed offline wording', () => {
    expect(CONNECTION_MESSAGES.offline).toBe(
      'オフラインです。接続が戻ると自動で再接続します。',
    );
  });
});

const memberPage = (store = makeStore()) =>
  renderMemberPage('/tabs/likes', store);

describe('member pages while the stored login waits for the network', () => {
  it('say 接続を待っています instead of sending the member to the login form', () => {
    localStorage.setItem('refresh_token', 'r-stored');
    const store = makeStore();
    store.dispatch(connectivityChanged(false));
    store.dispatch(renewalFailed('offline'));
    memberPage(store);
    expect(
      screen.getByRole('heading', { level: 1, name: '接続を待っています' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('ログインフォーム')).toBeNull();
    // Offline, a button could only fail: the online event reconnects.
    expect(screen.queryByRole('button', { name: '今すぐ再接続' })).toBeNull();
  });

  it('offer 今すぐ再接続 when the browser is online, and show the page once it worked', async () => {
    localStorage.setItem('refresh_token', 'r-stored');
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () =>
        okEnvelope({
          ...createLoginResult({ refreshToken: 'r-2' }),
          serverTime: new Date().toISOString(),
        }),
      ),
    );
    const store = makeStore();
    store.dispatch(renewalFailed('unavailable'));
    memberPage(store);
    fireEvent.click(screen.getByRole('button', { name: '今すぐ再接続' }));
    expect(await screen.findByText('会員ページの中身')).toBeInTheDocument();
    expect(localStorage.getItem('refresh_token')).toBe('r-2');
  });

  it('without a stored login still go to the login form', () => {
    memberPage();
    expect(screen.getByText('ログインフォーム')).toBeInTheDocument();
  });
});
