import type { Competition } from '@proam/contract';
import { useEffect, useRef, useState } from 'react';
import { AdminListBar } from '@/components/admin-list-bar';
import { SmallButton } from '@/components/small-button';
import { ConfirmDeleteDialog } from '@/components/confirm-dialog';
import { FlashStatus } from '@/components/flash-status';
import { MemberTabHeader } from '@/components/member-tab-header';
import { QueryState } from '@/components/query-state';
import { selectIsAdmin } from '@/features/auth/auth-slice';
import {
  finishedCompetitions,
  upcomingCompetitions,
} from '../competition-status';
import {
  useDeleteCompetitionMutation,
  useGetCompetitionsQuery,
  useUpdateCompetitionMutation,
} from '../competitions-api';
import { COMPETITION_GONE_MSG } from '../competition-validation';
import {
  CompetitionGrid,
  CompetitionResults,
  CompetitionSection,
} from './competition-lists';
import { CompetitionForm } from './competition-form';
import { ResultsEditor } from './results-editor';
import { useConfirmedDelete } from '@/hooks/use-confirmed-delete';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useFlash } from '@/hooks/use-flash';
import { useAppSelector } from '@/lib/store-hooks';

/**
 * The list, or a form in its place. A form keeps the competition it opened
 * with, so it stays on screen if a refetch no longer lists it (deleted
 * meanwhile): saving then says so.
 */
type Mode =
  | { kind: 'list' }
  | { kind: 'create' }
  | { kind: 'edit'; competition: Competition }
  | { kind: 'results'; competition: Competition };

/** The `data-opens` of the card button that opened a form, to give it the focus back. */
const opener = (kind: 'edit' | 'results', c: Competition) => `${kind}:${c.id}`;

type AdminActions = {
  onEdit: (c: Competition) => void;
  onResults: (c: Competition) => void;
  onPublish: (c: Competition) => void;
  onDelete: (c: Competition) => void;
  publishingId: string | null;
};

const CardActions = ({
  competition: c,
  actions,
}: {
  competition: Competition;
  actions: AdminActions;
}) => (
  <div className="admin-actions" role="group" aria-label={`${c.name} の管理`}>
    {c.status === 'draft' && (
      <SmallButton
        variant="primary"
        disabled={actions.publishingId === c.id}
        onClick={() => actions.onPublish(c)}
      >
        公開
      </SmallButton>
    )}
    <SmallButton
      variant="outline"
      data-opens={opener('edit', c)}
      onClick={() => actions.onEdit(c)}
    >
      編集
    </SmallButton>
    <SmallButton
      variant="outline"
      data-opens={opener('results', c)}
      onClick={() => actions.onResults(c)}
    >
      {c.results.length ? '結果を編集' : '結果を入力'}
    </SmallButton>
    <SmallButton variant="outline-danger" onClick={() => actions.onDelete(c)}>
      削除
    </SmallButton>
  </div>
);

/**
 * The members' competitions tab: upcoming, finished with results, and for
 * admins drafts plus create, edit, publish, results and delete.
 */
export const CompetitionsBoard = () => {
  useDocumentTitle('大会');
  const isAdmin = useAppSelector(selectIsAdmin);
  const { data, isLoading, isError, isFetching, refetch } =
    useGetCompetitionsQuery({});
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const { message, setMessage, announce, ref: messageRef } = useFlash();
  const [publishingId, setPublishingId] = useState<string | null>(null);
  const { toDelete, setToDelete, dialog } = useConfirmedDelete<Competition>(
    useDeleteCompetitionMutation(),
    (c) => announce(`「${c.name}」を削除しました。`),
  );
  const [update] = useUpdateCompetitionMutation();
  const contentRef = useRef<HTMLDivElement>(null);
  /** What キャンセル gives the focus back to, once the list is shown again. */
  const returnTo = useRef<string | null>(null);

  const list = data ?? [];
  const drafts = isAdmin ? list.filter((c) => c.status === 'draft') : [];
  const upcoming = upcomingCompetitions(list);
  const finished = finishedCompetitions(list);

  // A form takes the place of the list: start reading (and typing) at its
  // title. Back on the list after キャンセル, the focus returns to the button
  // that opened the form (新規作成 for a new one, or when that card is gone).
  useEffect(() => {
    const root = contentRef.current;
    if (mode.kind !== 'list') {
      window.scrollTo({ top: 0 });
      root?.querySelector<HTMLElement>('.admin-form__title')?.focus();
      return;
    }
    const key = returnTo.current;
    returnTo.current = null;
    if (!key || !root) return;
    const buttons = [...root.querySelectorAll<HTMLElement>('[data-opens]')];
    (
      buttons.find((b) => b.dataset.opens === key) ??
      root.querySelector<HTMLElement>('.admin-bar .button--primary')
    )?.focus();
  }, [mode]);

  const backToList = (done?: string) => {
    setMode({ kind: 'list' });
    if (done) announce(done);
    else setMessage('');
  };

  const cancel = () => {
    returnTo.current =
      mode.kind === 'edit' || mode.kind === 'results'
        ? opener(mode.kind, mode.competition)
        : 'create';
    backToList();
  };

  const publish = async (c: Competition) => {
    setPublishingId(c.id);
    const result = await update({ id: c.id, status: 'open' });
    setPublishingId(null);
    if (result.data === 0) setMessage(COMPETITION_GONE_MSG);
    else if (result.data !== undefined)
      setMessage(`「${c.name}」を公開しました（エントリー受付中）。`);
  };

  const actions: AdminActions = {
    onEdit: (c) => setMode({ kind: 'edit', competition: c }),
    onResults: (c) => setMode({ kind: 'results', competition: c }),
    onPublish: (c) => void publish(c),
    onDelete: setToDelete,
    publishingId,
  };

  const adminActions = (c: Competition) => (
    <CardActions competition={c} actions={actions} />
  );

  const renderForm = () => {
    if (mode.kind === 'list') return null;
    if (mode.kind === 'create')
      return <CompetitionForm onDone={backToList} onCancel={cancel} />;
    const current =
      list.find((c) => c.id === mode.competition.id) ?? mode.competition;
    return mode.kind === 'edit' ? (
      <CompetitionForm
        key={current.id}
        competition={current}
        onDone={backToList}
        onCancel={cancel}
      />
    ) : (
      <ResultsEditor
        key={current.id}
        competition={current}
        onDone={backToList}
        onCancel={cancel}
      />
    );
  };

  return (
    <>
      <MemberTabHeader path="/tabs/competitions" />
      <div className="container section" ref={contentRef}>
        {isAdmin && mode.kind === 'list' && (
          <AdminListBar
            label={
              <>
                <span className="tag tag--admin">管理者</span>
                大会の作成・編集・結果入力ができます。
              </>
            }
            createLabel="新規作成"
            onCreate={() => setMode({ kind: 'create' })}
            link={{ to: '/tabs/admin', label: '管理画面へ' }}
          />
        )}
        <FlashStatus
          ref={messageRef}
          message={mode.kind === 'list' ? message : ''}
        />

        {mode.kind !== 'list' ? (
          renderForm()
        ) : (
          <QueryState
            query={{ isLoading, isError, isFetching, refetch }}
            loading="大会情報を読み込み中"
            error="大会情報を読み込めませんでした。通信環境をご確認のうえ、再度お試しください。"
          >
            {() => (
              <>
                {isAdmin && (
                  <CompetitionSection
                    id="drafts-title"
                    title={
                      <>
                        下書き
                        <span className="section__note">管理者のみ表示</span>
                      </>
                    }
                  >
                    <CompetitionGrid
                      competitions={drafts}
                      empty="下書きの大会はありません。"
                      renderActions={adminActions}
                    />
                  </CompetitionSection>
                )}

                <CompetitionSection
                  id="upcoming-title"
                  title="開催予定の大会"
                  gap={isAdmin}
                >
                  <CompetitionGrid
                    competitions={upcoming}
                    empty="現在、開催予定の大会はありません。次回の発表をお待ちください。"
                    renderActions={isAdmin ? adminActions : undefined}
                  />
                </CompetitionSection>

                <CompetitionSection
                  id="past-title"
                  title="過去の大会と結果"
                  gap
                >
                  <CompetitionResults
                    competitions={finished}
                    empty="終了した大会の結果はまだありません。"
                    renderActions={isAdmin ? adminActions : undefined}
                    showArea
                  />
                </CompetitionSection>
              </>
            )}
          </QueryState>
        )}
      </div>
      {isAdmin && (
        <ConfirmDeleteDialog
          title="大会の削除"
          name={toDelete?.name}
          consequence="結果も含めて削除され、元に戻せません。"
          {...dialog}
        />
      )}
    </>
  );
};
