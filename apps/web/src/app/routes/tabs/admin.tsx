import type { News } from '@proam/contract';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { InlineError } from '@/components/inline-error';
import { PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import { AdminDashboard } from '@/features/admin/components/admin-dashboard';
import { MemberManagement } from '@/features/admin/components/member-management';
import { ReportList } from '@/features/admin/components/report-list';
import { AuditLog } from '@/features/audit/components/audit-log';
import { RequireAdmin } from '@/features/auth/components/require-admin';
import { ContactInbox } from '@/features/contact/components/contact-inbox';
import { AdminNewsList } from '@/features/news/components/admin-news-list';
import { NewsEditor } from '@/features/news/components/news-editor';
import { MailOutbox } from '@/features/notifications/components/mail-outbox';
import {
  useDeleteNewsMutation,
  useGetAdminNewsQuery,
} from '@/features/news/news-api';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/styles/admin.css';
import '@/styles/booking.css';

const SECTIONS = [
  { id: 'dashboard', label: 'ダッシュボード' },
  { id: 'members', label: '会員管理' },
  { id: 'reports', label: '通報' },
  { id: 'news', label: 'お知らせ' },
  { id: 'contact', label: 'お問い合わせ' },
  { id: 'audit', label: '操作履歴' },
  { id: 'mail', label: 'メール送信状況' },
] as const;
type SectionId = (typeof SECTIONS)[number]['id'];

const isSection = (v: string | null): v is SectionId =>
  SECTIONS.some((s) => s.id === v);

type NewsMode = { kind: 'list' } | { kind: 'edit'; news?: News };

const NewsSection = () => {
  const { data, isLoading, isError, isFetching, refetch } =
    useGetAdminNewsQuery({ size: 100 });
  const [mode, setMode] = useState<NewsMode>({ kind: 'list' });
  const [message, setMessage] = useState('');
  const [toDelete, setToDelete] = useState<News | null>(null);
  const [remove, { isLoading: deleting }] = useDeleteNewsMutation();
  const rootRef = useRef<HTMLDivElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (mode.kind !== 'edit') return;
    rootRef.current?.querySelector<HTMLElement>('.admin-form__title')?.focus();
  }, [mode]);

  const back = (done?: string) => {
    setMode({ kind: 'list' });
    setMessage(done ?? '');
    if (done) window.setTimeout(() => messageRef.current?.focus(), 0);
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    const title = toDelete.title;
    const result = await remove(toDelete.id);
    setToDelete(null);
    if ('data' in result) {
      setMessage(`「${title}」を削除しました。`);
      window.setTimeout(() => messageRef.current?.focus(), 0);
    }
  };

  return (
    <div ref={rootRef} className="stack">
      {mode.kind === 'edit' ? (
        <NewsEditor
          key={mode.news?.id ?? 'new'}
          news={mode.news}
          onDone={back}
          onCancel={() => back()}
        />
      ) : (
        <>
          <div className="admin-bar">
            <p className="admin-bar__label">
              公開中と予約投稿のお知らせをすべて表示しています（新しい順）。
            </p>
            <div className="admin-bar__buttons">
              <button
                type="button"
                className="button button--primary"
                onClick={() => setMode({ kind: 'edit' })}
              >
                お知らせを作成
              </button>
              <Link to="/info" className="button button--outline">
                公開ページを見る
              </Link>
            </div>
          </div>
          <p
            ref={messageRef}
            tabIndex={-1}
            role="status"
            className={message ? 'flash' : 'visually-hidden'}
          >
            {message}
          </p>
          {isLoading ? (
            <div className="page-loading">
              <Spinner label="お知らせを読み込み中" />
            </div>
          ) : isError ? (
            <InlineError
              message="お知らせを読み込めませんでした。"
              onRetry={isFetching ? undefined : () => void refetch()}
            />
          ) : !data || data.length === 0 ? (
            <p className="muted">お知らせはまだありません。</p>
          ) : (
            <AdminNewsList
              items={data}
              onEdit={(n) => setMode({ kind: 'edit', news: n })}
              onDelete={setToDelete}
            />
          )}
        </>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="お知らせの削除"
        message={
          toDelete
            ? `「${toDelete.title}」を削除しますか？公開ページからも削除され、元に戻せません。`
            : ''
        }
        confirmLabel="削除する"
        danger
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
};

const AdminPanel = () => {
  const [params, setParams] = useSearchParams();
  const raw = params.get('section');
  const current: SectionId = isSection(raw) ? raw : 'dashboard';
  const tabRefs = useRef<Partial<Record<SectionId, HTMLButtonElement | null>>>(
    {},
  );

  const select = (id: SectionId, focus = false) => {
    setParams(id === 'dashboard' ? {} : { section: id }, { replace: true });
    if (focus) tabRefs.current[id]?.focus();
  };

  // The WAI-ARIA tabs pattern: arrows, Home and End move between the tabs.
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = SECTIONS.findIndex((s) => s.id === current);
    const last = SECTIONS.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % SECTIONS.length
        : e.key === 'ArrowLeft'
          ? (i + last) % SECTIONS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    select(SECTIONS[next]!.id, true);
  };

  return (
    <div className="container section">
      <div className="admin-tabs" role="tablist" aria-label="管理メニュー">
        {SECTIONS.map((s) => (
          <button
            key={s.id}
            ref={(el) => {
              tabRefs.current[s.id] = el;
            }}
            type="button"
            role="tab"
            id={`admin-tab-${s.id}`}
            aria-controls={`admin-panel-${s.id}`}
            aria-selected={current === s.id}
            tabIndex={current === s.id ? 0 : -1}
            className="admin-tabs__tab"
            onClick={() => select(s.id)}
            onKeyDown={onKeyDown}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`admin-panel-${current}`}
        aria-labelledby={`admin-tab-${current}`}
        className="admin-tabs__panel"
      >
        {current === 'dashboard' && <AdminDashboard />}
        {current === 'members' && <MemberManagement />}
        {current === 'reports' && <ReportList />}
        {current === 'news' && <NewsSection />}
        {current === 'contact' && <ContactInbox />}
        {current === 'audit' && <AuditLog />}
        {current === 'mail' && <MailOutbox />}
      </div>
    </div>
  );
};

const AdminPage = () => {
  useDocumentTitle('管理');
  return (
    <>
      <PageHeader
        section="会員メニュー"
        title="管理"
        titleRight="ADMIN"
        description="運営ダッシュボード、会員管理（プロの確認・利用停止）、通報への対応、お知らせの作成・予約投稿、お問い合わせの対応状況、管理者の操作履歴、メールの送信状況を確認できます。大会の作成・結果入力は「大会」タブで行います。"
      />
      <AdminPanel />
    </>
  );
};

/** `#/tabs/admin`: admins only; other members see 権限がありません. */
const AdminRoute = () => (
  <RequireAdmin>
    <AdminPage />
  </RequireAdmin>
);

export default AdminRoute;
