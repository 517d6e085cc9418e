import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runtimeConfig } from '@/config/env';
import { createLesson } from '@/testing/factories';
import { ng, ok, serveApi } from '@/testing/msw';
import { setNow } from '@/testing/lessons';
import { renderWithProviders } from '@/testing/render';
import { ProSchedule } from '../components/pro-schedule';

const savedKey = runtimeConfig.stripePublishableKey;
beforeEach(() => {
  setNow('2026-11-20T00:00:00Z');
});
afterEach(() => {
  runtimeConfig.stripePublishableKey = savedKey;
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
  it('keeps the fee of a lesson paid online as it is, and says why', async () => {
    runtimeConfig.stripePublishableKey = 'pk_test_lesson_edit';
    const user = userEvent.setup();
    serveApi({ '/schedule/getById': () => ok([createLesson('L1')]) });
    renderPro();
    const fee = await openEdit(user);
    expect(fee).toHaveAttribute('readonly');
    expect(fee).toHaveAccessibleDescription(
      'オンライン決済の予約があるため、料金は変更できません。',
    );
  });

  it('lets the fee change when it is paid at the course', async () => {
    runtimeConfig.stripePublishableKey = null;
    const user = userEvent.setup();
    serveApi({ '/schedule/getById': () => ok([createLesson('L1')]) });
    renderPro();
    const fee = await openEdit(user);
    expect(fee).not.toHaveAttribute('readonly');
  });

  it('explains a fee the server kept (a payment since the form opened), not a time overlap, and keeps the input', async () => {
    runtimeConfig.stripePublishableKey = 'pk_test_lesson_edit';
    const user = userEvent.setup();
    serveApi({
      '/schedule/getById': () => ok([createLesson('L1', { reservedCount: 0 })]),
      '/schedule/update': () => ng('Conflict'),
    });
    renderPro();
    const fee = await openEdit(user);
    expect(fee).not.toHaveAttribute('readonly');
    await user.clear(fee);
    await user.type(fee, '18000');
    await user.click(screen.getByRole('button', { name: '変更を保存' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'オンライン決済の予約があるため、料金は変更できません。',
    );
    expect(alert).not.toHaveTextContent('別のレッスン');
    expect(fee).toHaveValue('18000');
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
    expect(within(select).getByRole('option', { name: '満員' })).toBeDisabled();
    expect(
      within(select).getByRole('option', { name: '募集中' }),
    ).toBeEnabled();
  });
});
