import type { Refund } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createRefund } from '@/features/payment/__tests__/payment-factories';
import { selectCurrentAlert } from '@/lib/ui-slice';
import { apiCalls, deferred, ng, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { AdminRefunds } from '../components/admin-refunds';

const serveRefunds = (retryReply?: () => Response | Promise<Response>) => {
  const refunds: Refund[] = [
    createRefund('rf1', {
      status: 'failed',
      attempts: 6,
      lastError: 'Your card was declined.',
      nextAttemptAt: undefined,
      reason: 'calledOff',
    }),
    createRefund('rf2', { userName: '鈴木 花子', attempts: 1 }),
    createRefund('rf3', {
      userName: '高橋 一郎',
      status: 'succeeded',
      attempts: 1,
      stripeRefundId: 're_1',
      updatedAt: '2026-11-24T05:00:00.000Z',
    }),
  ];
  serveApi({
    '/payment/refunds': (body: { status?: string }) =>
      ok(refunds.filter((r) => !body.status || r.status === body.status)),
    '/payment/refundRetry': (body: { id: string }) => {
      const r = refunds.find((x) => x.id === body.id)!;
      Object.assign(r, { status: 'pending', lastError: r.lastError });
      return retryReply ? retryReply() : ok(r);
    },
  });
};

describe('返金 (admin)', () => {
  it('lists refunds with status, attempts and the last error', async () => {
    serveRefunds();
    renderWithProviders(<AdminRefunds />);
    const items = await screen.findAllByRole('article');
    expect(items).toHaveLength(3);
    expect(apiCalls[0]?.body).toEqual({ page: 1, size: 50 });
    const [failed, pending, done] = items as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(
      within(failed).getByRole('heading', { name: '山本 拓也様 12,550円' }),
    ).toBeInTheDocument();
    expect(failed).toHaveTextContent('要対応');
    expect(failed).toHaveTextContent('理由レッスン中止');
    expect(failed).toHaveTextContent('試行回数6回');
    expect(failed).toHaveTextContent('最後のエラーYour card was declined.');
    expect(pending).toHaveTextContent('処理中');
    expect(pending).toHaveTextContent('次の試行2026年11月25日(水) 10:00');
    expect(done).toHaveTextContent('完了');
    expect(within(done).queryByRole('button', { name: '再試行' })).toBeNull();
  });

  it('filters by status', async () => {
    const user = userEvent.setup();
    serveRefunds();
    renderWithProviders(<AdminRefunds />);
    await screen.findAllByRole('article');
    await user.click(screen.getByRole('radio', { name: '要対応' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(apiCalls.at(-1)?.body).toEqual({
      status: 'failed',
      page: 1,
      size: 50,
    });
  });

  it('retries a refund with 再試行, busy while the call runs, and says so', async () => {
    const user = userEvent.setup();
    const held = deferred();
    serveRefunds(held.reply);
    renderWithProviders(<AdminRefunds />);
    const [failed] = await screen.findAllByRole('article');
    const button = within(failed!).getByRole('button', { name: '再試行' });
    await user.click(button);
    expect(
      within(failed!).getByRole('button', { name: '再試行中…' }),
    ).toBeDisabled();
    expect(
      apiCalls.find((c) => c.path === '/payment/refundRetry')?.body,
    ).toEqual({ id: 'rf1' });
    held.release(ok(createRefund('rf1', { status: 'pending', attempts: 6 })));
    expect(
      await screen.findByText(
        '山本 拓也様への返金（12,550円）を再試行しました。',
      ),
    ).toBeInTheDocument();
    // The list is read again and shows the refund back in the queue.
    await waitFor(() =>
      expect(
        apiCalls.filter((c) => c.path === '/payment/refunds'),
      ).toHaveLength(2),
    );
    await waitFor(() =>
      expect(screen.getAllByRole('article')[0]).toHaveTextContent('処理中'),
    );
  });

  it('says when there is nothing to handle', async () => {
    const user = userEvent.setup();
    serveApi({ '/payment/refunds': () => ok([]) });
    renderWithProviders(<AdminRefunds />);
    expect(await screen.findByText('返金はありません。')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '要対応' }));
    expect(
      await screen.findByText('対応が必要な返金はありません。'),
    ).toBeInTheDocument();
  });

  it('says a refund completed meanwhile is done (409), without the error alert, and reads the list again', async () => {
    const user = userEvent.setup();
    serveRefunds(() => ng('Conflict'));
    const { store } = renderWithProviders(<AdminRefunds />);
    const [failed] = await screen.findAllByRole('article');
    await user.click(within(failed!).getByRole('button', { name: '再試行' }));

    expect(
      await screen.findByText('この返金はすでに完了しています。'),
    ).toBeInTheDocument();
    expect(selectCurrentAlert(store.getState())).toBeNull();
    await waitFor(() =>
      expect(
        apiCalls.filter((c) => c.path === '/payment/refunds'),
      ).toHaveLength(2),
    );
  });

  it('says why another failure stopped the retry, without the error alert', async () => {
    const user = userEvent.setup();
    serveRefunds(() => ng('InternalError'));
    const { store } = renderWithProviders(<AdminRefunds />);
    const [failed] = await screen.findAllByRole('article');
    await user.click(within(failed!).getByRole('button', { name: '再試行' }));

    expect(
      await screen.findByText(/^山本 拓也様への返金を再試行できませんでした。/),
    ).toBeInTheDocument();
    expect(selectCurrentAlert(store.getState())).toBeNull();
  });
});
