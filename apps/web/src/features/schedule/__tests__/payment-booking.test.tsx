import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runtimeConfig } from '@/config/env';
import {
  createLesson,
  createMyReservation,
  createReservedLesson,
} from '@/testing/factories';
import { ok, pathsCalled } from '@/testing/msw';
import { cardOf, serveLessons, setNow } from '@/testing/lessons';
import { renderWithProviders } from '@/testing/render';
import { AmateurReservations } from '../components/amateur-reservations';
import { ProLessons } from '../components/pro-lessons';

const savedKey = runtimeConfig.stripePublishableKey;
beforeEach(() => {
  setNow('2026-11-20T00:00:00Z');
});
afterEach(() => {
  runtimeConfig.stripePublishableKey = savedKey;
  vi.useRealTimers();
});

const paymentsOn = () => {
  runtimeConfig.stripePublishableKey = 'pk_test_booking';
};

/** A place held for `u-1` until `holdExpiresAt`, waiting for the card. */
const heldLesson = (
  id: string,
  holdExpiresAt: string,
  place = '保留中コース',
) =>
  createLesson(id, {
    place,
    fee: 12000,
    myReservation: createMyReservation({
      status: 'pending',
      amount: 12000,
      serviceFee: 550,
      paymentStatus: 'requires_payment',
      holdExpiresAt,
    }),
  });

/** A pro's lessons, with the payment step as a page to land on. */
const renderProLessons = () =>
  renderWithProviders(
    <Routes>
      <Route
        path="/tabs/schedule/pro/:proId"
        element={<ProLessons proId="pro-1" userId="u-1" canReserve />}
      />
      <Route path="/payment/:scheduleId" element={<h1>お支払いページ</h1>} />
    </Routes>,
    { route: '/tabs/schedule/pro/pro-1' },
  );

const reserveButton = async (place: string) =>
  within(await cardOf(place)).getByRole('button', { name: /を予約する$/ });

/** 予約する on the card of `place` reserves the lesson there and then. */
const reservesAtOnce = async (
  user: ReturnType<typeof userEvent.setup>,
  place: string,
) => {
  await user.click(await reserveButton(place));
  expect(
    await screen.findByText(/のレッスンを予約しました。/),
  ).toBeInTheDocument();
  expect(pathsCalled()).toContain('/schedule/reserve');
};

describe('予約する with online payment', () => {
  it('opens the payment step for a lesson with a fee, without reserving', async () => {
    paymentsOn();
    const user = userEvent.setup();
    serveLessons('/schedule/getActive', {
      lessons: [createLesson('O1', { place: '有料コース', fee: 12000 })],
    });
    renderProLessons();
    await user.click(await reserveButton('有料コース'));
    expect(
      await screen.findByRole('heading', { name: 'お支払いページ' }),
    ).toBeInTheDocument();
    expect(pathsCalled()).not.toContain('/schedule/reserve');
  });

  it('reserves a free lesson at once even with online payment', async () => {
    paymentsOn();
    const user = userEvent.setup();
    const lesson = createLesson('Z1', { place: '無料コース', fee: 0 });
    serveLessons(
      '/schedule/getActive',
      { lessons: [lesson] },
      { '/schedule/reserve': () => ok(createReservedLesson('Z1', { fee: 0 })) },
    );
    renderProLessons();
    await reservesAtOnce(user, '無料コース');
    expect(
      screen.queryByRole('heading', { name: 'お支払いページ' }),
    ).toBeNull();
  });

  it('reserves at once without online payment (現地払い), whatever the fee', async () => {
    runtimeConfig.stripePublishableKey = null;
    const user = userEvent.setup();
    serveLessons(
      '/schedule/getActive',
      { lessons: [createLesson('O1', { place: '有料コース', fee: 12000 })] },
      { '/schedule/reserve': () => ok(createReservedLesson('O1')) },
    );
    renderProLessons();
    await reservesAtOnce(user, '有料コース');
  });
});

describe('a reservation waiting for its payment', () => {
  it('on the pro’s page shows お支払い待ち with the time left and お支払いへ, no chat', async () => {
    paymentsOn();
    serveLessons('/schedule/getActive', {
      lessons: [heldLesson('P1', '2026-11-20T00:12:34.000Z')],
    });
    renderProLessons();
    const card = await cardOf('保留中コース');
    expect(
      within(card).getByText('お支払い待ち（残り 12:34）'),
    ).toBeInTheDocument();
    expect(
      within(card).getByRole('link', {
        name: '2026年11月28日(土) 09:00〜のレッスンのお支払いへ',
      }),
    ).toHaveAttribute('href', '/payment/P1');
    expect(within(card).queryByText('予約済み')).toBeNull();
    expect(within(card).queryByRole('link', { name: /チャット/ })).toBeNull();
    expect(
      within(card).getByRole('button', { name: /の予約をキャンセル$/ }),
    ).toBeInTheDocument();
  });

  it('in the member’s reservations shows お支払い待ち and お支払いへ, and says when the time is up', async () => {
    paymentsOn();
    serveLessons('/schedule/getById', {
      lessons: [
        heldLesson('P1', '2026-11-20T00:05:00.000Z', '支払い待ちコース'),
        heldLesson('P2', '2026-11-19T23:59:00.000Z', '期限切れコース'),
      ],
    });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    const waiting = await cardOf('支払い待ちコース');
    expect(
      within(waiting).getByText('お支払い待ち（残り 05:00）'),
    ).toBeInTheDocument();
    expect(
      within(waiting).getByRole('link', { name: /のお支払いへ$/ }),
    ).toHaveAttribute('href', '/payment/P1');
    expect(within(waiting).queryByRole('link', { name: /チャット/ })).toBe(
      null,
    );
    const expired = await cardOf('期限切れコース');
    expect(
      within(expired).getByText(
        'お支払い期限が過ぎました。空きがあれば、もう一度予約できます。',
      ),
    ).toBeInTheDocument();
  });

  it('marks a paid reservation お支払い済み and a refunded one 返金済み', async () => {
    paymentsOn();
    serveLessons('/schedule/getById', {
      lessons: [
        createReservedLesson('D1', {
          place: '支払済コース',
          myReservation: createMyReservation({
            serviceFee: 550,
            paymentStatus: 'paid',
          }),
        }),
        createReservedLesson('R1', {
          place: '中止コース',
          statusRound: 'cancelled',
          callOffReason: '雨天のため',
          myReservation: createMyReservation({
            serviceFee: 550,
            paymentStatus: 'refunded',
          }),
        }),
      ],
    });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    const paid = await cardOf('支払済コース');
    expect(within(paid).getByText('お支払い済み')).toBeInTheDocument();
    expect(
      within(paid).getByRole('link', { name: /チャット/ }),
    ).toBeInTheDocument();
    const refunded = await cardOf('中止コース');
    expect(within(refunded).getByText('返金済み')).toBeInTheDocument();
    expect(within(refunded).queryByText('お支払い済み')).toBeNull();
  });
});
