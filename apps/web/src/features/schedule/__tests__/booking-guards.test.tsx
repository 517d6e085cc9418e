import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createLesson,
  createPro,
  createReservedLesson,
} from '@/testing/factories';
import { ok, pathsCalled, serveApi } from '@/testing/msw';
import { cardOf, serveLessons, setNow } from '@/testing/lessons';
import { renderWithProviders } from '@/testing/render';
import { AmateurReservations } from '../components/amateur-reservations';
import { ProLessons } from '../components/pro-lessons';
import { ProSchedule } from '../components/pro-schedule';

afterEach(() => {
  vi.useRealTimers();
});

/** 13:00 Japan time on 11月28日. */
const atOnePm = () => setNow('2026-11-28T04:00:00Z');

const renderAsAmateur = () =>
  renderWithProviders(<ProLessons proId="pro-1" userId="u-1" canReserve />);

describe('what an amateur may book', () => {
  it('offers no booking of a lesson that has started, and says what a booking of today means', async () => {
    atOnePm();
    serveLessons('/schedule/getActive', {
      lessons: [
        createLesson('started', { date: '2026-11-28', place: '午前CC' }),
        createLesson('tonight', {
          date: '2026-11-28',
          startTime: '18:00',
          endTime: '21:00',
          place: 'ナイターCC',
        }),
        createLesson('later', { date: '2026-12-03', place: '来週CC' }),
      ],
    });
    renderAsAmateur();
    const started = await cardOf('午前CC');
    expect(
      within(started).getByRole('button', { name: '受付終了' }),
    ).toBeDisabled();
    expect(
      within(started).queryByRole('button', { name: /予約する$/ }),
    ).toBeNull();
    expect(
      within(await cardOf('ナイターCC')).getByText(
        '本日のレッスンのため、予約後のキャンセルはできません。',
      ),
    ).toBeInTheDocument();
    expect(
      within(await cardOf('来週CC')).getByText(
        'キャンセル期限：12月2日(水) 23:59',
      ),
    ).toBeInTheDocument();
  });

  it('asks before booking a lesson of today, which cannot be cancelled, and books only once confirmed', async () => {
    atOnePm();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const tonight = createLesson('tonight', {
      date: '2026-11-28',
      startTime: '18:00',
      endTime: '21:00',
      place: 'ナイターCC',
      reservedCount: 0,
    });
    serveLessons(
      '/schedule/getActive',
      { lessons: [tonight] },
      {
        '/schedule/reserve': () => ok({ ...tonight, reservedCount: 1 }),
      },
    );
    renderAsAmateur();
    const reserve = within(await cardOf('ナイターCC')).getByRole('button', {
      name: /を予約する$/,
    });
    await user.click(reserve);
    let dialog = screen.getByRole('dialog', { name: '本日のレッスンの予約' });
    expect(dialog).toHaveTextContent('予約後はキャンセルできません。');
    await user.click(within(dialog).getByRole('button', { name: '戻る' }));
    expect(pathsCalled()).not.toContain('/schedule/reserve');
    await user.click(reserve);
    dialog = screen.getByRole('dialog', { name: '本日のレッスンの予約' });
    await user.click(within(dialog).getByRole('button', { name: '予約する' }));
    expect(
      await screen.findByText(/のレッスンを予約しました。/),
    ).toBeInTheDocument();
    expect(pathsCalled()).toContain('/schedule/reserve');
  });

  it('books a later lesson at once', async () => {
    atOnePm();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const later = createLesson('later', {
      date: '2026-12-03',
      place: '来週CC',
    });
    serveLessons(
      '/schedule/getActive',
      { lessons: [later] },
      { '/schedule/reserve': () => ok(later) },
    );
    renderAsAmateur();
    await user.click(
      within(await cardOf('来週CC')).getByRole('button', {
        name: /を予約する$/,
      }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(
      await screen.findByText(/のレッスンを予約しました。/),
    ).toBeInTheDocument();
  });

  it('says a pro under the company’s check takes no bookings yet, and offers none', async () => {
    atOnePm();
    serveApi({
      '/schedule/getActive': () =>
        ok([
          createLesson('open', { date: '2026-12-03', place: '確認中CC' }),
          createLesson('full', {
            date: '2026-12-04',
            place: '確認中満員CC',
            statusRound: 'full',
            reservedCount: 3,
          }),
          createLesson('waiting', {
            date: '2026-12-05',
            place: '確認中待ちCC',
            statusRound: 'full',
            reservedCount: 3,
            waitlistPosition: 2,
            waitlistCount: 2,
          }),
        ]),
      '/user/getByIdList': () =>
        ok([
          createPro('pro-1', {
            pro: {
              lessonFee: 12000,
              verified: false,
              ratingAverage: null,
              reviewCount: 0,
            },
          }),
        ]),
    });
    renderAsAmateur();
    expect(
      await screen.findByText(
        'このプロは運営による確認中のため、現在は予約できません。',
      ),
    ).toBeInTheDocument();
    for (const place of ['確認中CC', '確認中満員CC'])
      expect(within(await cardOf(place)).queryByRole('button')).toBeNull();
    // A place in line taken before can still be left.
    expect(
      within(await cardOf('確認中待ちCC')).getByRole('button', {
        name: /キャンセル待ちをやめる$/,
      }),
    ).toBeEnabled();
  });
});

describe('what a pro may set for a day', () => {
  it('offers 終了 for a day that has come, not for a later one', async () => {
    atOnePm();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    serveApi({
      '/schedule/getById': () =>
        ok([
          createLesson('today', { date: '2026-11-28' }),
          createLesson('later', { date: '2026-11-30' }),
        ]),
    });
    renderWithProviders(<ProSchedule proId="pro-1" today="2026-11-28" />);
    const select = await screen.findByRole('combobox', {
      name: 'この日のラウンド状況',
    });
    await waitFor(() => expect(select).toBeEnabled());
    expect(within(select).getByRole('option', { name: '終了' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: /^11月30日/ }));
    await waitFor(() => expect(select).toBeEnabled());
    expect(within(select).getByRole('option', { name: '終了' })).toBeDisabled();
  });
});

describe('an amateur’s lessons', () => {
  it('keeps a lesson marked 終了 before its day among the reservations', async () => {
    atOnePm();
    serveApi({
      '/schedule/getById': () =>
        ok([
          createReservedLesson('early-done', {
            date: '2026-12-05',
            place: '早めに終了CC',
            statusRound: 'done',
          }),
        ]),
      '/user/getByIdList': () => ok([createPro('pro-1')]),
    });
    renderWithProviders(
      <AmateurReservations userId="u-1" reviewSlot={() => <p>口コミ枠</p>} />,
    );
    expect(await screen.findByText('早めに終了CC')).toBeInTheDocument();
    expect(screen.queryByText('口コミ枠')).toBeNull();
  });
});

describe('the pro’s own lessons', () => {
  it('names who booked each lesson of the day', async () => {
    atOnePm();
    serveApi({
      '/schedule/getById': () =>
        ok([
          createLesson('booked', {
            date: '2026-11-28',
            startTime: '15:00',
            endTime: '18:00',
            reservedCount: 2,
            participants: ['u-2', 'u-3'],
          }),
        ]),
      '/user/getByIdList': () =>
        ok([
          createPro('u-2', { type: 'amature', userName: '佐藤 花子' }),
          createPro('u-3', { type: 'amature', userName: '鈴木 一郎' }),
        ]),
    });
    renderWithProviders(<ProSchedule proId="pro-1" today="2026-11-28" />);
    expect(
      await screen.findByText('参加者：佐藤 花子、鈴木 一郎'),
    ).toBeInTheDocument();
  });
});
