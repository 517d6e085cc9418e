import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import CheckinRoute, {
  INVALID_LINK_MESSAGE,
} from '@/app/routes/checkin/checkin';
import ChatRoute from '@/app/routes/tabs/chat';
import LikesRoute from '@/app/routes/tabs/likes';
import ProProfileRoute from '@/app/routes/tabs/pro-profile';
import ScheduleRoute from '@/app/routes/tabs/schedule';
import { createAuthUser, createLoginResult } from '@/testing/auth';
import { createPro } from '@/testing/factories';
import {
  apiCalls,
  bodyOf,
  ng,
  ok,
  pathsCalled,
  requestAt,
  serveAll,
  serveApi,
} from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { selectAuthUser, tokenReceived } from '../auth-slice';
import {
  buildOrderMessage,
  isBuyer,
  parseCheckinRecord,
  selectIsBuyer,
  type CheckinRecord,
} from '../buyer-mode';
import { ProcurementReturn } from '../components/procurement-return';

const record: CheckinRecord = {
  punchOutSetupRequest: {
    userId: 'taro.yamada',
    userName: '山田 太郎',
    buyer: 'acme-procure',
    buyerCookie: 'COOKIE-8f2a&b',
    browserFormPost: 'https://procure.acme.example/punchout/return',
  },
  checkedInAt: '2026-11-22T01:00:00.000Z',
};

const buyerUser = {
  id: 'taro.yamada',
  userName: '山田 太郎',
  type: 'BUYER' as const,
};

const pro = createPro();

/** Serves the listed paths; any other path is Forbidden, as for a buyer token. */
const route = (routes: Parameters<typeof serveApi>[0]) =>
  serveApi(routes, () => ng('Forbidden', { reqId: '', msg: 'x' }));

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  localStorage.clear();
});

const buyerStore = () => {
  localStorage.setItem('checkin', JSON.stringify(record));
  const store = makeStore();
  store.dispatch(tokenReceived(createLoginResult({ user: buyerUser })));
  return store;
};

describe('buyer mode helpers', () => {
  it('tells buyers from members', () => {
    expect(isBuyer(buyerUser)).toBe(true);
    expect(isBuyer(createAuthUser())).toBe(false);
    expect(isBuyer(null)).toBe(false);
    expect(selectIsBuyer(buyerStore().getState())).toBe(true);
  });

  it('reads the stored check-in record and refuses unsafe return addresses', () => {
    expect(parseCheckinRecord(JSON.stringify(record))).toEqual(record);
    expect(parseCheckinRecord(null)).toBeNull();
    expect(parseCheckinRecord('{no json')).toBeNull();
    const unsafe = {
      ...record,
      punchOutSetupRequest: {
        ...record.punchOutSetupRequest,
        browserFormPost: 'javascript:alert(1)',
      },
    };
    expect(parseCheckinRecord(JSON.stringify(unsafe))).toBeNull();
  });

  it('builds a PunchOutOrderMessage with the escaped cookie and a 0 JPY total', () => {
    const xml = buildOrderMessage(record, new Date('2026-11-22T01:00:00Z'));
    expect(xml).toContain('<BuyerCookie>COOKIE-8f2a&amp;b</BuyerCookie>');
    expect(xml).toContain('<Money currency="JPY">0</Money>');
    expect(xml).toContain('<PunchOutOrderMessage>');
    expect(xml).toContain('timestamp="2026-11-22T01:00:00.000Z"');
  });
});

describe('buyer-mode guards', () => {
  it('the likes tab searches pros without like buttons and explains why', async () => {
    route({ '/users/pro/condition': () => ok([pro]) });
    renderWithProviders(<LikesRoute />, { store: buyerStore() });
    expect(
      await screen.findByRole('link', { name: /プロ p1/ }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('buyer-notice')).toHaveTextContent('閲覧のみ');
    expect(screen.queryByRole('button', { name: /いいね/ })).toBeNull();
    // Given likes are never asked for: the buyer token may not read them.
    expect(pathsCalled()).not.toContain('/user/like');
  });

  it('a pro profile has no like button for a buyer, but one for an amateur', async () => {
    route({
      '/user/read': () => ok(pro),
      '/user/like': () => ok([]),
    });
    const view = renderWithProviders(<ProProfileRoute />, {
      store: buyerStore(),
      route: '/tabs/likes/pro/p1',
      path: '/tabs/likes/pro/:id',
    });
    expect(
      await screen.findByRole('heading', { level: 2, name: /プロ p1/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /いいね/ })).toBeNull();
    expect(screen.getByTestId('buyer-notice')).toBeInTheDocument();
    view.unmount();

    const member = makeStore();
    member.dispatch(tokenReceived(createLoginResult()));
    renderWithProviders(<ProProfileRoute />, {
      store: member,
      route: '/tabs/likes/pro/p1',
      path: '/tabs/likes/pro/:id',
    });
    expect(
      await screen.findByRole('button', { name: 'いいね（プロ p1さん）' }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('buyer-notice')).toBeNull();
  });

  it('schedule and chat explain themselves instead of asking the server', () => {
    route({});
    const store = buyerStore();
    const schedule = renderWithProviders(<ScheduleRoute />, { store });
    expect(
      screen.getByText('予約の機能はご利用いただけません'),
    ).toBeInTheDocument();
    schedule.unmount();
    renderWithProviders(<ChatRoute />, { store });
    expect(
      screen.getByText('チャットはご利用いただけません'),
    ).toBeInTheDocument();
    expect(apiCalls).toHaveLength(0);
  });

  it('購買システムに戻る is a real POST form carrying the order message', () => {
    localStorage.setItem('checkin', JSON.stringify(record));
    const { container } = renderWithProviders(<ProcurementReturn />);
    const form = container.querySelector('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute(
      'action',
      record.punchOutSetupRequest.browserFormPost,
    );
    const field = form.querySelector<HTMLInputElement>(
      'input[name="cxml-urlencoded"]',
    )!;
    expect(field.type).toBe('hidden');
    const submit = screen.getByRole('button', { name: '購買システムに戻る' });
    expect(submit).toHaveAttribute('type', 'submit');
    form.addEventListener('submit', (e) => e.preventDefault());
    fireEvent.submit(form);
    expect(field.value).toContain(
      '<BuyerCookie>COOKIE-8f2a&amp;b</BuyerCookie>',
    );
  });

  it('going back ends the buyer session: logout on the server (keepalive), storage emptied', () => {
    localStorage.setItem('checkin', JSON.stringify(record));
    localStorage.setItem('refresh_token', 'r-buyer');
    serveAll(() => ok({ loggedOut: true }));
    const { container } = renderWithProviders(<ProcurementReturn />);
    const form = container.querySelector('form')!;
    form.addEventListener('submit', (e) => e.preventDefault());
    fireEvent.submit(form);
    expect(localStorage.getItem('checkin')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(apiCalls).toHaveLength(1);
    const request = requestAt(0);
    expect(request.method).toBe('POST');
    expect(request.keepalive).toBe(true);
    expect(request.headers.get('authorization')).toBe('Bearer r-buyer');
    expect(request.url).toMatch(/\/api\/auth\/logout$/);
  });

  it('shows nothing without a check-in record', () => {
    const { container } = renderWithProviders(<ProcurementReturn />);
    expect(container.querySelector('form')).toBeNull();
  });
});

describe('check-in route', () => {
  it('redeems the ticket once, stores the record and the token, and welcomes the buyer', async () => {
    const login = createLoginResult({
      user: buyerUser,
      refreshToken: 'r-buyer',
    });
    route({
      '/punchout/checkin': () => ok({ checkin: record, ...login }),
    });
    const { store } = renderWithProviders(<CheckinRoute />, {
      route: '/checkin/ticket-abcdefgh',
      path: '/checkin/:ticket',
    });
    expect(
      await screen.findByText('山田 太郎様、ようこそ'),
    ).toBeInTheDocument();
    expect(screen.getByText(/acme-procure/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'プロを探す' })).toHaveAttribute(
      'href',
      '/tabs/likes',
    );
    expect(JSON.parse(localStorage.getItem('checkin')!)).toEqual(record);
    expect(localStorage.getItem('refresh_token')).toBe('r-buyer');
    expect(selectAuthUser(store.getState())).toEqual(buyerUser);
    expect(await bodyOf(0)).toEqual({
      ticket: 'ticket-abcdefgh',
    });
    expect(pathsCalled()).toEqual(['/punchout/checkin']);
  });

  it('a used or expired ticket shows the invalid-link message', async () => {
    route({
      '/punchout/checkin': () => ng('InvalidCode', { msg: 'invalid' }),
    });
    renderWithProviders(<CheckinRoute />, {
      route: '/checkin/ticket-used-1234',
      path: '/checkin/:ticket',
    });
    expect(await screen.findByText(INVALID_LINK_MESSAGE)).toBeInTheDocument();
    expect(localStorage.getItem('checkin')).toBeNull();
    await waitFor(() =>
      expect(localStorage.getItem('refresh_token')).toBeNull(),
    );
  });
});
