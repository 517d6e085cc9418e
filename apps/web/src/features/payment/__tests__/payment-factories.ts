import type { Payment, Refund, Statement } from '@proam/contract';
import { factory, keyedFactory } from '@/testing/factories';

/** A paid payment of a 12,000円 lesson (12,550円 with the system fee). */
export const createPayment = (
  reservationId: string,
  overrides: Partial<Payment> = {},
): Payment => ({
  reservationId,
  scheduleId: 's-1',
  date: '2026-11-28',
  startTime: '09:30',
  place: '富士見ヶ丘カントリー倶楽部',
  proId: 'p-1',
  proName: '佐藤 健太',
  amount: 12000,
  serviceFee: 550,
  status: 'paid',
  paidAt: '2026-11-20T01:05:00.000Z',
  receiptNo: `R20261120-${reservationId.slice(-8).toUpperCase()}`,
  createdAt: '2026-11-20T01:00:00.000Z',
  ...overrides,
});

/** A month with two lessons: 12,000円 × 3 and 8,000円 × 1. */
export const createStatement = factory((): Statement => ({
  month: '2026-11',
  proId: 'p-1',
  proName: '佐藤 健太',
  lessons: [
    {
      scheduleId: 's-1',
      date: '2026-11-08',
      startTime: '09:30',
      place: '富士見ヶ丘カントリー倶楽部',
      fee: 12000,
      participants: 3,
    },
    {
      scheduleId: 's-2',
      date: '2026-11-21',
      startTime: '13:00',
      place: '武蔵野ゴルフクラブ',
      fee: 8000,
      participants: 1,
    },
  ],
  grossFee: 44000,
  commission: 4400,
  payout: 39600,
}));

export const createRefund = keyedFactory((id): Refund => ({
  id,
  reservationId: `pay-${id}`,
  scheduleId: 's-1',
  date: '2026-11-28',
  userId: 'u-1',
  userName: '山本 拓也',
  amount: 12550,
  reason: 'cancelled',
  status: 'pending',
  attempts: 0,
  nextAttemptAt: '2026-11-25T01:00:00.000Z',
  createdAt: '2026-11-25T00:59:00.000Z',
  updatedAt: '2026-11-25T00:59:00.000Z',
}));
