import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLesson } from '@/testing/factories';
import { ng, ok, serveApi } from '@/testing/msw';
import { setNow } from '@/testing/lessons';
import { renderWithProviders } from '@/testing/render';
import { ProSchedule } from '../components/pro-schedule';

beforeEach(() => {
  setNow('2026-11-20T00:00:00Z');
});
afterEach(() => {
  vi.useRealTimers();
});

const renderPro = () =>
  renderWithProviders(<ProSchedule proId="pro-1" today="2026-11-28" />);

const openEdit = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(
    await screen.findByRole('button', { name: '09:00のレッスンを編集' }),
  );
  return screen.findByRole('textbox', { name: /料金/ });
};

describe('a pro edits a lesson someone booked', () => {
  it('keeps its day, times and fee as booked, and says why; the course may change, and the amateurs are told', async () => {
    const user = userEvent.setup();
    serveApi({ '/schedule/getById': () => ok([createLesson('L1')]) });
    renderPro();
    const fee = await openEdit(user);
    expect(
      screen.getByText(
        '予約が入っているため、日付・時刻・料金は変更できません。変更が必要な場合は、このレッスンを中止して新しく登録してください。',
      ),
    ).toBeInTheDocument();
    for (const field of [
      fee,
      screen.getByLabelText(/^日付/),
      screen.getByLabelText(/^開始時刻/),
      screen.getByLabelText(/^終了時刻/),
    ]) {
      expect(field).toHaveAttribute('readonly');
      expect(field).toHaveAccessibleDescription(
        expect.stringContaining('予約が入っているため変更できません。'),
      );
    }
    const place = screen.getByRole('textbox', { name: /ゴルフ場/ });
    expect(place).not.toHaveAttribute('readonly');
    expect(place).toHaveAccessibleDescription(
      expect.stringContaining('予約した方にメールでお知らせします'),
    );
  });

  it('lets everything change while nobody has booked', async () => {
    const user = userEvent.setup();
    serveApi({
      '/schedule/getById': () => ok([createLesson('L1', { reservedCount: 0 })]),
    });
    renderPro();
    const fee = await openEdit(user);
    expect(fee).not.toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^日付/)).not.toHaveAttribute('readonly');
  });

  it('explains a fee the server kept (a booking since the form opened), not a time overlap, and keeps the input', async () => {
    const user = userEvent.setup();
    serveApi({
      '/schedule/getById': () => ok([createLesson('L1', { reservedCount: 0 })]),
      '/schedule/update': () => ng('Conflict'),
    });
    renderPro();
    const fee = await openEdit(user);
    await user.clear(fee);
    await user.type(fee, '18000');
    await user.click(screen.getByRole('button', { name: '変更を保存' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      '予約が入っているため、日付・時刻・料金は変更できません。',
    );
    expect(alert).not.toHaveTextContent('別のレッスン');
    expect(fee).toHaveValue('18000');
  });
});

describe('an edit the server refuses with 409', () => {
  it('names both causes when the times changed (an overlap, or a booking made meanwhile), and keeps the input', async () => {
    const user = userEvent.setup();
    serveApi({
      '/schedule/getById': () => ok([createLesson('L1', { reservedCount: 0 })]),
      '/schedule/update': () => ng('Conflict'),
    });
    renderPro();
    await openEdit(user);
    const start = screen.getByLabelText(/^開始時刻/);
    await user.clear(start);
    await user.type(start, '08:00');
    await user.click(screen.getByRole('button', { name: '変更を保存' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'この時間帯には別のレッスンが登録されているか、この間に予約が入ったため、変更できません。',
    );
    expect(start).toHaveValue('08:00');
  });
});

describe('the day’s status', () => {
  it('shows 満員 but does not offer it: a lesson is full when its places are taken', async () => {
    serveApi({
      '/schedule/getById': () => ok([createLesson('L1')]),
    });
    renderPro();
    const select = await screen.findByRole('combobox', {
      name: 'この日のラウンド状況',
    });
    // Enabled once the day's lessons have loaded.
    await waitFor(() => expect(select).toBeEnabled());
    expect(within(select).getByRole('option', { name: '満員' })).toBeDisabled();
    expect(
      within(select).getByRole('option', { name: '募集中' }),
    ).toBeEnabled();
  });
});
