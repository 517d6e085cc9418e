import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ICAL from 'ical.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '@/testing/downloads';
import { createFullLesson, createReservedLesson } from '@/testing/factories';
import { bodyOf, ng, ok, pathsCalled } from '@/testing/msw';
import {
  cardOf,
  serveLessons,
  serveLessonsChangedBy,
  setNow,
} from '@/testing/lessons';
import { renderWithProviders } from '@/testing/render';
import { CANCEL_CLOSED_REASON } from '../booking-rules';
import { AmateurReservations } from '../components/amateur-reservations';

/** 23:59:59 Japan time on 11月27日, the last second to cancel a lesson on the 28th. */
const LAST_SECOND = '2026-11-27T14:59:59Z';
/** 00:00 Japan time on 11月28日, the lesson's day. */
const LESSON_DAY = '2026-11-27T15:00:00Z';

afterEach(() => {
  vi.useRealTimers();
});

/** The member's schedule. */
const MINE = '/schedule/getById';

describe('the cancellation deadline on a reservation', () => {
  it('shows the deadline and キャンセル up to 23:59:59 of the day before', async () => {
    setNow(LAST_SECOND);
    serveLessons(MINE, { lessons: [createReservedLesson('L1')] });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    const lesson = await cardOf('キャンセル期限：11月27日(金) 23:59');
    expect(
      within(lesson).getByRole('button', {
        name: '2026年11月28日(土)の予約をキャンセル',
      }),
    ).toBeInTheDocument();
    expect(within(lesson).queryByText(CANCEL_CLOSED_REASON)).toBeNull();
  });

  it('from the lesson day on, keeps the deadline, drops キャンセル and says why', async () => {
    setNow(LESSON_DAY);
    serveLessons(MINE, { lessons: [createReservedLesson('L1')] });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    const lesson = await cardOf('キャンセル期限：11月27日(金) 23:59');
    expect(within(lesson).getByText(CANCEL_CLOSED_REASON)).toBeInTheDocument();
    expect(within(lesson).queryByRole('button', { name: /キャンセル$/ })).toBe(
      null,
    );
    // The chat stays: that is where the amateur tells the pro.
    expect(
      within(lesson).getByRole('link', { name: /チャット/ }),
    ).toBeInTheDocument();
  });

  it('shows a CancelClosed answer (midnight passed meanwhile) the same way, focused, without the エラー alert', async () => {
    setNow(LAST_SECOND);
    const user = userEvent.setup();
    serveLessons(
      MINE,
      { lessons: [createReservedLesson('L1')] },
      { '/schedule/cancel': () => ng('CancelClosed') },
    );
    const { store } = renderWithProviders(<AmateurReservations userId="u-1" />);
    await user.click(
      await screen.findByRole('button', {
        name: '2026年11月28日(土)の予約をキャンセル',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: '予約のキャンセル' });
    await user.click(
      within(dialog).getByRole('button', { name: '予約をキャンセル' }),
    );
    const reason = await screen.findByText(CANCEL_CLOSED_REASON);
    await waitFor(() => expect(reason).toHaveFocus());
    expect(
      screen.queryByRole('button', { name: /の予約をキャンセル$/ }),
    ).toBeNull();
    expect(store.getState().ui.alerts).toEqual([]);
    expect(await bodyOf('/schedule/cancel')).toEqual({
      id: 'L1',
    });
  });

  it('cancels in time: the lesson leaves the list and the notice takes the focus', async () => {
    setNow(LAST_SECOND);
    const user = userEvent.setup();
    serveLessonsChangedBy(
      MINE,
      [createReservedLesson('L1')],
      '/schedule/cancel',
      {
        after: [],
        reply: () =>
          ok(
            createReservedLesson('L1', {
              participants: [],
              reservedCount: 0,
              myReservation: undefined,
            }),
          ),
      },
    );
    renderWithProviders(<AmateurReservations userId="u-1" />);
    await user.click(
      await screen.findByRole('button', { name: /の予約をキャンセル$/ }),
    );
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: '予約をキャンセル',
      }),
    );
    const notice = await screen.findByText('予約をキャンセルしました。');
    await waitFor(() => expect(notice).toHaveFocus());
    expect(
      await screen.findByText('予約中のレッスンはありません。'),
    ).toBeInTheDocument();
  });
});

describe('a called-off lesson', () => {
  it('shows 中止 and the reason, and neither the deadline nor キャンセル', async () => {
    setNow('2026-11-20T00:00:00Z');
    serveLessons(MINE, {
      lessons: [
        createReservedLesson('L1', {
          statusRound: 'cancelled',
          callOffReason: '雨天のため',
        }),
      ],
    });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    const lesson = await cardOf('中止の理由：雨天のため');
    expect(within(lesson).getByText('中止')).toBeInTheDocument();
    expect(
      within(lesson).getByText('このレッスンは中止になりました。'),
    ).toBeInTheDocument();
    expect(within(lesson).queryByText(/キャンセル期限/)).toBeNull();
    expect(within(lesson).queryByRole('button', { name: /キャンセル/ })).toBe(
      null,
    );
    expect(
      within(lesson).queryByRole('button', { name: /カレンダーに追加/ }),
    ).toBeNull();
  });

  it('leaves past lessons and cancelled reservations out', async () => {
    setNow('2026-11-20T00:00:00Z');
    serveLessons(MINE, {
      lessons: [
        createReservedLesson('past', {
          date: '2026-11-19',
          place: '過去コース',
        }),
        createReservedLesson('gone', {
          place: '取消済みコース',
          participants: [],
          myReservation: {
            status: 'cancelled',
            amount: 20000,
            serviceFee: 0,
            paymentStatus: 'none',
          },
        }),
        createReservedLesson('L1', { place: '予約中コース' }),
      ],
    });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    expect(await screen.findByText('予約中コース')).toBeInTheDocument();
    expect(screen.queryByText('過去コース')).toBeNull();
    expect(screen.queryByText('取消済みコース')).toBeNull();
  });
});

describe('the waitlist on the schedule tab', () => {
  it('lists the lessons waited for with the place in line, and leaving calls waitlistLeave', async () => {
    setNow('2026-11-20T00:00:00Z');
    const user = userEvent.setup();
    serveLessonsChangedBy(
      MINE,
      [createFullLesson('W1', { waitlistCount: 3, waitlistPosition: 2 })],
      '/schedule/waitlistLeave',
      { after: [], reply: () => ok({ left: true }) },
    );
    renderWithProviders(<AmateurReservations userId="u-1" />);
    const section = await screen.findByRole('region', {
      name: 'キャンセル待ち中のレッスン',
    });
    expect(within(section).getByText('キャンセル待ち 2番目')).toBeVisible();
    expect(within(section).getByText('3人')).toBeInTheDocument();
    await user.click(
      within(section).getByRole('button', { name: /キャンセル待ちをやめる$/ }),
    );
    expect(
      await screen.findByText(/のキャンセル待ちをやめました。$/),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.queryByRole('region', { name: 'キャンセル待ち中のレッスン' }),
      ).toBeNull(),
    );
    expect(await bodyOf('/schedule/waitlistLeave')).toEqual({ id: 'W1' });
  });
});

describe('calendar and map', () => {
  const { blobs, names: downloads } = captureDownloads();

  it('カレンダーに追加 downloads an .ics that starts 09:00 Japan time (00:00Z) with the pro and the place', async () => {
    setNow('2026-11-20T00:00:00Z');
    const user = userEvent.setup();
    serveLessons(MINE, { lessons: [createReservedLesson('L1')] });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    await screen.findByRole('link', { name: '山田 太郎プロ' });
    await user.click(
      screen.getByRole('button', {
        name: '2026年11月28日(土)のレッスンをカレンダーに追加',
      }),
    );
    expect(downloads).toEqual(['proam-lesson-2026-11-28-0900.ics']);
    expect(blobs[0]?.type).toBe('text/calendar;charset=utf-8');
    const text = await blobs[0]!.text();
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent(
      'vevent',
    )!;
    const event = new ICAL.Event(vevent);
    expect(event.startDate.toJSDate().toISOString()).toBe(
      '2026-11-28T00:00:00.000Z',
    );
    expect(event.endDate.toJSDate().toISOString()).toBe(
      '2026-11-28T05:00:00.000Z',
    );
    expect(event.summary).toBe('ラウンドレッスン（山田 太郎プロ）');
    expect(event.location).toBe('府中カントリークラブ');
    expect(event.uid).toBe('lesson-L1@proam-connect');
    expect(event.description).toContain('キャンセル期限：11月27日(金) 23:59');
    expect(event.description).toContain('#/tabs/schedule');
  });

  it('links the place to a map search in a new tab', async () => {
    setNow('2026-11-20T00:00:00Z');
    serveLessons(MINE, {
      lessons: [createReservedLesson('L1', { place: '富士 C.C. & 倶楽部' })],
    });
    renderWithProviders(<AmateurReservations userId="u-1" />);
    const map = await screen.findByRole('link', {
      name: '地図で見る：富士 C.C. & 倶楽部（新しいタブで開きます）',
    });
    expect(map).toHaveAttribute(
      'href',
      'https://www.google.com/maps/search/?api=1&query=%E5%AF%8C%E5%A3%AB%20C.C.%20%26%20%E5%80%B6%E6%A5%BD%E9%83%A8',
    );
    expect(map).toHaveAttribute('target', '_blank');
    expect(map.getAttribute('rel')).toContain('noopener');
    expect(pathsCalled()).not.toContain('/schedule/getActive');
  });
});
