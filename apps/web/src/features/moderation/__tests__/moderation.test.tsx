import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createPro } from '@/testing/factories';
import { bodiesOf, ng, ok, serveApi } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { BlockToggle } from '../components/block-toggle';
import { BlockedMembers } from '../components/blocked-members';
import { ReportButton } from '../components/report-button';

const renderReport = () =>
  renderWithProviders(
    <ReportButton
      targetType="review"
      targetId="rv-1"
      targetLabel="会員 1さんの口コミ"
    />,
  );

describe('通報する', () => {
  it('needs a reason, then sends the kind and the details as one reason and thanks', async () => {
    const user = userEvent.setup();
    serveApi({
      '/report/create': (body: Record<string, string>) =>
        ok({
          id: 'rp-1',
          reporterId: 'u-1',
          ...body,
          status: 'open',
          createdAt: '2026-11-28T00:00:00.000Z',
        }),
    });
    renderReport();
    await user.click(
      screen.getByRole('button', { name: '会員 1さんの口コミを通報する' }),
    );
    const dialog = screen.getByRole('dialog', { name: '通報する' });
    const kind = within(dialog).getByRole('combobox', { name: /通報の理由/ });
    await waitFor(() => expect(kind).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: '通報する' }));
    expect(
      within(dialog).getByText('通報の理由を選択してください。'),
    ).toBeInTheDocument();
    expect(kind).toHaveFocus();
    expect(bodiesOf('/report/create')).toEqual([]);

    // その他 needs the details.
    await user.selectOptions(kind, 'その他');
    await user.click(within(dialog).getByRole('button', { name: '通報する' }));
    const details = within(dialog).getByRole('textbox', { name: /詳しい内容/ });
    expect(
      within(dialog).getByText(
        '「その他」を選んだ場合は、内容を入力してください。',
      ),
    ).toBeInTheDocument();
    expect(details).toHaveFocus();

    await user.selectOptions(kind, 'スパム・宣伝');
    await user.type(details, '外部サイトへの勧誘です。');
    await user.click(within(dialog).getByRole('button', { name: '通報する' }));
    const thanks = await screen.findByText('通報を受け付けました');
    await waitFor(() => expect(thanks).toHaveFocus());
    expect(bodiesOf('/report/create')).toEqual([
      {
        targetType: 'review',
        targetId: 'rv-1',
        reason: 'スパム・宣伝：外部サイトへの勧誘です。',
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the dialog and explains a refusal (20 an hour)', async () => {
    const user = userEvent.setup();
    serveApi({ '/report/create': () => ng('TooManyRequests') });
    const { store } = renderReport();
    await user.click(screen.getByRole('button', { name: /を通報する$/ }));
    const dialog = screen.getByRole('dialog', { name: '通報する' });
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: /通報の理由/ }),
      '嫌がらせ・迷惑行為',
    );
    await user.click(within(dialog).getByRole('button', { name: '通報する' }));
    expect(
      await within(dialog).findByText(
        '短時間に多くの通報が送られました。時間をおいて再度お試しください。',
      ),
    ).toBeInTheDocument();
    expect(bodiesOf('/report/create')).toEqual([
      { targetType: 'review', targetId: 'rv-1', reason: '嫌がらせ・迷惑行為' },
    ]);
    expect(store.getState().ui.alerts).toEqual([]);
  });
});

describe('blocking', () => {
  const serveBlocks = (state: { blocked: string[] }) =>
    serveApi({
      '/user/blocks': () => ok(state.blocked),
      '/user/block': (body: { userId: string }) => {
        state.blocked = [body.userId, ...state.blocked];
        return ok(state.blocked);
      },
      '/user/unblock': (body: { userId: string }) => {
        state.blocked = state.blocked.filter((id) => id !== body.userId);
        return ok(state.blocked);
      },
      '/user/getByIdList': (body: { idList: string[] }) =>
        ok(
          body.idList.map((id) =>
            createPro(id, { userName: id === 'p2' ? '佐藤 花子' : id }),
          ),
        ),
    });

  it('blocks after a confirmation that says what a block does, and ブロック解除 lifts it', async () => {
    const user = userEvent.setup();
    serveBlocks({ blocked: [] });
    renderWithProviders(<BlockToggle userId="p2" name="佐藤 花子プロ" />);
    await user.click(
      await screen.findByRole('button', {
        name: '佐藤 花子プロをブロックする',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: 'ブロックの確認' });
    expect(dialog).toHaveTextContent(
      /いいね、レッスンの予約やキャンセル待ちができなくなります/,
    );
    // An amateur's block silences the amateur in a shared lesson's chat.
    expect(dialog).toHaveTextContent('あなたがメッセージを送れなくなります');
    // キャンセル sends nothing.
    await user.click(
      within(dialog).getByRole('button', { name: 'キャンセル' }),
    );
    expect(bodiesOf('/user/block')).toEqual([]);

    await user.click(
      screen.getByRole('button', { name: '佐藤 花子プロをブロックする' }),
    );
    await user.click(
      within(screen.getByRole('dialog', { name: 'ブロックの確認' })).getByRole(
        'button',
        { name: 'ブロックする' },
      ),
    );
    expect(
      await screen.findByText('佐藤 花子プロをブロック中です。'),
    ).toBeInTheDocument();
    expect(bodiesOf('/user/block')).toEqual([{ userId: 'p2' }]);

    await user.click(
      screen.getByRole('button', { name: '佐藤 花子プロをブロック解除' }),
    );
    await screen.findByRole('button', { name: '佐藤 花子プロをブロックする' });
    expect(bodiesOf('/user/unblock')).toEqual([{ userId: 'p2' }]);
  });

  it('says in the dialog why a block was refused (500 at most, too many at once), and blocks nothing', async () => {
    const user = userEvent.setup();
    const answers = [ng('Conflict'), ng('TooManyRequests')];
    serveApi({
      '/user/blocks': () => ok([]),
      '/user/block': () => answers.shift()!,
    });
    const { store } = renderWithProviders(
      <BlockToggle userId="p2" name="佐藤 花子プロ" />,
    );
    await user.click(
      await screen.findByRole('button', {
        name: '佐藤 花子プロをブロックする',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: 'ブロックの確認' });
    const confirm = within(dialog).getByRole('button', {
      name: 'ブロックする',
    });
    await user.click(confirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'ブロックできるのは500人までです。',
    );
    await user.click(confirm);
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'ブロックの操作が多すぎます。',
      ),
    );
    expect(dialog).toHaveAttribute('open');
    // Said once, in the dialog: no app-wide alert that asks to try again.
    expect(store.getState().ui.alerts).toEqual([]);
  });

  it('lists ブロック中のメンバー by name with 解除', async () => {
    const user = userEvent.setup();
    serveBlocks({ blocked: ['p2'] });
    renderWithProviders(<BlockedMembers />);
    await user.click(
      await screen.findByRole('button', {
        name: '佐藤 花子さんのブロックを解除',
      }),
    );
    expect(
      await screen.findByText('ブロック中のメンバーはいません。'),
    ).toBeInTheDocument();
    expect(bodiesOf('/user/unblock')).toEqual([{ userId: 'p2' }]);
  });
});
