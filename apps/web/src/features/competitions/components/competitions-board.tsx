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

type Mode =
  | { kind: 'list' }
  | { kind: 'create' }
  | { kind: 'edit'; id: string }
  | { kind: 'results'; id: string };

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
    <SmallButton variant="outline" onClick={() => actions.onEdit(c)}>
      編集
    </SmallButton>
    <SmallButton variant="outline" onClick={() => actions.onResults(c)}>
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

  const list = data ?? [];
  const drafts = isAdmin ? list.filter((c) => c.status === 'draft') : [];
  const upcoming = upcomingCompetitions(list);
  const finished = finishedCompetitions(list);
  const current =
    mode.kind === 'edit' || mode.kind === 'results'
      ? list.find((c) => c.id === mode.id)
      : undefined;

  // A form takes the place of the list: start reading (and typing) at its title.
  useEffect(() => {
    if (mode.kind === 'list') return;
    window.scrollTo({ top: 0 });
    contentRef.current
      ?.querySelector<HTMLElement>('.admin-form__title')
      ?.focus();
  }, [mode]);

  const backToList = (done?: string) => {
    setMode({ kind: 'list' });
    if (done) announce(done);
    else setMessage('');
  };

  const publish = async (c: Competition) => {
    setPublishingId(c.id);
    const result = await update({ id: c.id, status: 'open' });
    setPublishingId(null);
    if ('data' in result)
      setMessage(`「${c.name}」を公開しました（エントリー受付中）。`);
  };

  const actions: AdminActions = {
    onEdit: (c) => setMode({ kind: 'edit', id: c.id }),
    onResults: (c) => setMode({ kind: 'results', id: c.id }),
    onPublish: (c) => void publish(c),
    onDelete: setToDelete,
    publishingId,
  };

  const adminActions = (c: Competition) => (
    <CardActions competition={c} actions={actions} />
  );

  const renderForm = () => {
    if (mode.kind === 'create')
      return (
        <CompetitionForm onDone={backToList} onCancel={() => backToList()} />
      );
    if (!current)
      return (
        <div className="notice-card">
          <p className="notice-card__lead">大会が見つかりませんでした。</p>
          <button
            type="button"
            className="button button--outline"
            onClick={() => backToList()}
          >
            一覧へ戻る
          </button>
        </div>
      );
    return mode.kind === 'edit' ? (
      <CompetitionForm
        key={current.id}
        competition={current}
        onDone={backToList}
        onCancel={() => backToList()}
      />
    ) : (
      <ResultsEditor
        key={current.id}
        competition={current}
        onDone={backToList}
        onCancel={() => backToList()}
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
