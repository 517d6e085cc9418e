import type { AuditEntry } from '@proam/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createUser } from '@/testing/factories';
import { bodiesOf, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { auditActionLabel, auditDetailText } from '../audit-api';
import { AuditLog } from '../components/audit-log';

const entry = (n: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `a-${n}`,
  actorId: 'admin-1',
  action: 'news.delete',
  targetId: `n-${n}`,
  at: '2026-11-20T01:00:00.000Z',
  ...overrides,
});

/** `/audit/list` pages the entries as the API does; `/user/getByIdList` knows admin-1. */
const serveLog = (entries: AuditEntry[]) =>
  serveApi({
    '/audit/list': ({
      page = 1,
      size = 50,
    }: {
      page?: number;
      size?: number;
    }) => ok(entries.slice((page - 1) * size, page * size)),
    '/user/getByIdList': ({ idList }: { idList: string[] }) =>
      ok(
        [
          createUser({ id: 'admin-1', userName: '運営 太郎', type: 'admin' }),
        ].filter((u) => idList.includes(u.id)),
      ),
  });

const rows = () =>
  within(screen.getAllByRole('rowgroup')[1]!).getAllByRole('row');

describe('操作履歴', () => {
  it('names who acted, falling back to the id of one not found', async () => {
    serveLog([
      entry(1),
      entry(2, { actorId: 'gone-admin', action: 'competition.delete' }),
    ]);
    renderWithProviders(<AuditLog />);
    expect(
      await screen.findByRole('columnheader', { name: '実行者' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(rows()[0]).toHaveTextContent('運営 太郎'));
    expect(rows()[1]).toHaveTextContent('gone-admin');
    expect(bodiesOf('/user/getByIdList')).toEqual([
      { idList: ['admin-1', 'gone-admin'] },
    ]);
  });

  it('reads older entries with もっと見る', async () => {
    const user = userEvent.setup();
    serveLog(Array.from({ length: 60 }, (_, i) => entry(i + 1)));
    renderWithProviders(<AuditLog />);
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(bodiesOf('/audit/list')).toEqual([{ page: 1, size: 50 }]);
    await user.click(screen.getByRole('button', { name: 'もっと見る' }));
    await waitFor(() => expect(rows()).toHaveLength(60));
    expect(rows()[59]).toHaveTextContent('n-60');
    expect(bodiesOf('/audit/list').at(-1)).toEqual({ page: 2, size: 50 });
    expect(screen.queryByRole('button', { name: 'もっと見る' })).toBeNull();
  });
});

describe('audit labels', () => {
  it('names every action the API records', () => {
    expect(auditActionLabel('report.resolve')).toBe('通報を対応済みに変更');
    expect(auditActionLabel('payment.refundRetry')).toBe('返金を再試行');
  });

  it('says what a suspension, a report and a pro check recorded', () => {
    expect(auditDetailText({ reason: '規約違反のため' })).toBe(
      '理由: 規約違反のため',
    );
    expect(auditDetailText({ resolution: '口コミを削除しました' })).toBe(
      '対応内容: 口コミを削除しました',
    );
    expect(auditDetailText({ verified: true })).toBe('確認済みにした');
    expect(auditDetailText({ verified: false })).toBe('確認を取り消した');
  });
});
