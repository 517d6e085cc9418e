import type { User } from '@proam/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import CheckinRoute, {
  INVALID_LINK_MESSAGE,
} from '@/app/routes/checkin/checkin';
import ChatRoute from '@/app/routes/tabs/chat';
import LikesRoute from '@/app/routes/tabs/likes';
import ProProfileRoute from '@/app/routes/tabs/pro-profile';
import ScheduleRoute from '@/app/routes/tabs/schedule';
import { createAuthUser, createLoginResult } from '@/testing/auth';
import {
  jsonResponse,
  okEnvelope,
  renderWithProviders,
} from '@/testing/render';
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

const pro: User = {
  id: 'p1',
  type: 'pro',
  userName: 'プロ p1',
  area: '神奈川県',
  imageInfo: [],
  pro: { lessonFee: 12000 },
  likeCount: 2,
  createdAt: '2026-10-01T00:00:00.000Z',
};

const fetchMock = vi.fn<typeof fetch>();
const pathsCalled = () =>
  fetchMock.mock.calls.map(([input]) =>
    new URL((input as Request).url).pathname.replace(/^\/api/, ''),
  );

const route = (handlers: Record<string, () => Response>) =>
  fetchMock.mockImplementation(async (input) => {
    const path = new URL((input as Request).url).pathname.replace(/^\/api/, '');
    const handler = handlers[path];
    return handler
      ? handler()
      : jsonResponse(
          { status: 'NG', code: 'Forbidden', reqId: '', msg: 'x' },
          { status: 403 },
        );
  });

beforeEach(() => {
  localStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
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
    route({ '/users/pro/condition': () => okEnvelope([pro]) });
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
      '/user/read': () => okEnvelope(pro),
      '/user/like': () => okEnvelope([]),
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
    expect(fetchMock).not.toHaveBeenCalled();
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
      '/punchout/checkin': () => okEnvelope({ checkin: record, ...login }),
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
    const [request] = fetchMock.mock.calls[0]!;
    expect(await (request as Request).json()).toEqual({
      ticket: 'ticket-abcdefgh',
    });
    expect(pathsCalled()).toEqual(['/punchout/checkin']);
  });

  it('a used or expired ticket shows the invalid-link message', async () => {
    route({
      '/punchout/checkin': () =>
        jsonResponse(
          { status: 'NG', code: 'InvalidCode', reqId: 'r', msg: 'invalid' },
          { status: 400 },
        ),
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
