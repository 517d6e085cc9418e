import type { News } from '@proam/contract';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AdminListBar } from '@/components/admin-list-bar';
import { ConfirmDeleteDialog } from '@/components/confirm-dialog';
import { FlashStatus } from '@/components/flash-status';
import { PageHeader } from '@/components/page-header';
import { NextPage } from '@/components/infinite-query-list';
import { QueryState } from '@/components/query-state';
import { useGetAdminNewsPagesInfiniteQuery } from '@/features/admin/admin-api';
import { AdminDashboard } from '@/features/admin/components/admin-dashboard';
import { AdminRefunds } from '@/features/admin/components/admin-refunds';
import { AdminSales } from '@/features/admin/components/admin-sales';
import { MemberManagement } from '@/features/admin/components/member-management';
import { ReportList } from '@/features/admin/components/report-list';
import { AuditLog } from '@/features/audit/components/audit-log';
import { RequireAdmin } from '@/features/auth/components/require-admin';
import { ContactInbox } from '@/features/contact/components/contact-inbox';
import { AdminNewsList } from '@/features/news/components/admin-news-list';
import { NewsEditor } from '@/features/news/components/news-editor';
import { MailOutbox } from '@/features/notifications/components/mail-outbox';
import { useDeleteNewsMutation } from '@/features/news/news-api';
import { useConfirmedDelete } from '@/hooks/use-confirmed-delete';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useFlash } from '@/hooks/use-flash';
import '@/styles/admin.css';
import '@/styles/booking.css';
import '@/styles/payments.css';

const SECTIONS = [
  { id: 'dashboard', label: 'ダッシュボード' },
  { id: 'members', label: '会員管理' },
  { id: 'reports', label: '通報' },
  { id: 'sales', label: '売上・精算' },
  { id: 'refunds', label: '返金' },
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
  const query = useGetAdminNewsPagesInfiniteQuery();
  const items = query.data?.pages.flat() ?? [];
  const [mode, setMode] = useState<NewsMode>({ kind: 'list' });
  const { message, setMessage, announce, ref: messageRef } = useFlash();
  const { toDelete, setToDelete, dialog } = useConfirmedDelete<News>(
    useDeleteNewsMutation(),
    (n) => announce(`「${n.title}」を削除しました。`),
  );
  const rootRef = useRef<HTMLDivElement>(null);
  /**
   * Where キャンセル returns the focus: the place in the list of the item
   * whose 編集 opened the form, or -1 for お知らせを作成.
   */
  const returnTo = useRef<number | null>(null);

  // The editor takes the list's place: start at its title. Back on the list
  // after キャンセル, the focus returns to the 編集 that opened it, or to
  // お知らせを作成 (for a new item, or one no longer listed).
  useEffect(() => {
    const root = rootRef.current;
    if (mode.kind === 'edit') {
      root?.querySelector<HTMLElement>('.admin-form__title')?.focus();
      return;
    }
    const index = returnTo.current;
    returnTo.current = null;
    if (index === null || !root) return;
    const row = root.querySelectorAll('.admin-list > li')[index];
    const edit = [...(row?.querySelectorAll('button') ?? [])].find(
      (b) => b.textContent === '編集',
    );
    (
      edit ?? root.querySelector<HTMLElement>('.admin-bar .button--primary')
    )?.focus();
  }, [mode]);

  const back = (done?: string) => {
    setMode({ kind: 'list' });
    if (done) announce(done);
    else setMessage('');
  };

  const cancel = () => {
    const from = mode.kind === 'edit' ? mode.news : undefined;
    returnTo.current = from ? items.findIndex((n) => n.id === from.id) : -1;
    back();
  };

  return (
    <div ref={rootRef} className="stack">
      {mode.kind === 'edit' ? (
        <NewsEditor
          key={mode.news?.id ?? 'new'}
          news={mode.news}
          onDone={back}
          onCancel={cancel}
        />
      ) : (
        <>
          <AdminListBar
            label="公開中と予約投稿のお知らせを新しい順に表示しています。"
            createLabel="お知らせを作成"
            onCreate={() => setMode({ kind: 'edit' })}
            link={{ to: '/info', label: '公開ページを見る' }}
          />
          <FlashStatus ref={messageRef} message={message} />
          <QueryState
            query={query}
            loading="お知らせを読み込み中"
            error="お知らせを読み込めませんでした。"
            isEmpty={items.length === 0}
            empty="お知らせはまだありません。"
          >
            {() => (
              <>
                <AdminNewsList
                  items={items}
                  onEdit={(n) => setMode({ kind: 'edit', news: n })}
                  onDelete={setToDelete}
                />
                <NextPage query={query} />
              </>
            )}
          </QueryState>
        </>
      )}
      <ConfirmDeleteDialog
        title="お知らせの削除"
        name={toDelete?.title}
        consequence="公開ページからも削除され、元に戻せません。"
        {...dialog}
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
        {current === 'sales' && <AdminSales />}
        {current === 'refunds' && <AdminRefunds />}
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
        description="運営ダッシュボード、会員管理（プロの確認・利用停止）、通報への対応、月ごとの売上・精算（CSV）と返金の状況、お知らせの作成・予約投稿、お問い合わせの対応状況、管理者の操作履歴、メールの送信状況を確認できます。大会の作成・結果入力は「大会」タブで行います。"
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
