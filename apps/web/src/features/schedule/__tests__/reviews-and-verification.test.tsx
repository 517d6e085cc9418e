import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMyReservation,
  createPro,
  createReservedLesson,
} from '@/testing/factories';
import { ok, serveApi } from '@/testing/msw';
import { setNow } from '@/testing/lessons';
import { renderWithProviders } from '@/testing/render';
import { AmateurReservations } from '../components/amateur-reservations';
import { VerificationBanner } from '../components/verification-banner';

afterEach(() => {
  vi.useRealTimers();
});

/** 10:00 Japan time on 11月30日. */
const setToday = () => setNow('2026-11-30T01:00:00Z');

describe('the review slot on the amateur’s lessons', () => {
  it('is offered for confirmed lessons once they have ended, never for called-off, pending, running or future ones', async () => {
    setToday();
    serveApi({
      '/schedule/getById': () =>
        ok([
          createReservedLesson('past', {
            date: '2026-11-28',
            place: '過去CC',
            statusRound: 'done',
          }),
          createReservedLesson('today', {
            date: '2026-11-30',
            place: '今日CC',
          }),
          createReservedLesson('early', {
            date: '2026-11-30',
            startTime: '06:00',
            endTime: '09:30',
            place: '早朝CC',
          }),
          createReservedLesson('future', {
            date: '2026-12-05',
            place: '未来CC',
          }),
          createReservedLesson('off', {
            date: '2026-11-27',
            place: '中止CC',
            statusRound: 'cancelled',
            callOffReason: '雨天のため',
          }),
          createReservedLesson('pending', {
            date: '2026-11-26',
            place: '未確定CC',
            myReservation: createMyReservation({ status: 'pending' }),
          }),
        ]),
      '/user/getByIdList': () =>
        ok([createPro('pro-1', { userName: '山田 太郎' })]),
    });
    renderWithProviders(
      <AmateurReservations
        userId="u-1"
        reviewSlot={(s, label) => (
          <p>
            口コミ枠 {s.id} {label}
          </p>
        )}
      />,
    );
    const past = await screen.findByRole('region', {
      name: '受講したレッスン',
    });
    expect(within(past).getByText('過去CC')).toBeInTheDocument();
    expect(
      within(past).getByText('口コミ枠 past 2026年11月28日(土)'),
    ).toBeInTheDocument();
    expect(within(past).queryByText('中止CC')).toBeNull();
    expect(within(past).queryByText('未確定CC')).toBeNull();
    // Today's lesson that has ended is a past one, with the invitation;
    // the one still under way (09:00–14:00 at 10:00) is not yet.
    expect(within(past).getByText('早朝CC')).toBeInTheDocument();
    expect(
      within(past).getByText('口コミ枠 early 2026年11月30日(月)'),
    ).toBeInTheDocument();
    expect(within(past).queryByText('今日CC')).toBeNull();
    expect(screen.getByText('今日CC')).toBeInTheDocument();
    expect(screen.queryByText(/口コミ枠 today/)).toBeNull();
    expect(screen.queryByText(/口コミ枠 future/)).toBeNull();
    expect(screen.queryByText(/口コミ枠 off/)).toBeNull();
  });

  it('lists no past lessons without a slot (pros and admins)', async () => {
    setToday();
    serveApi({
      '/schedule/getById': () =>
        ok([createReservedLesson('past', { date: '2026-11-28' })]),
      '/user/getByIdList': () => ok([createPro('pro-1')]),
    });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    await screen.findByText('予約中のレッスンはありません。');
    expect(
      screen.queryByRole('region', { name: '受講したレッスン' }),
    ).toBeNull();
  });
});

describe('the verification banner', () => {
  it('tells an unverified pro what works and what waits', () => {
    renderWithProviders(
      <VerificationBanner
        user={createPro('p6', {
          pro: { verified: false, ratingAverage: null, reviewCount: 0 },
        })}
      />,
    );
    const banner = screen.getByRole('region', { name: '運営による確認中です' });
    expect(banner).toHaveTextContent(
      /プロフィールの編集とラウンドレッスンの登録はできます/,
    );
    expect(banner).toHaveTextContent(/予約を受け付けず/);
    expect(banner).toHaveTextContent(/一覧にも表示されません/);
  });

  it('is not shown to a verified pro or an amateur', () => {
    const { container, rerender } = renderWithProviders(
      <VerificationBanner user={createPro('p1')} />,
    );
    expect(container).toBeEmptyDOMElement();
    rerender(<VerificationBanner user={{ type: 'amature', pro: undefined }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
