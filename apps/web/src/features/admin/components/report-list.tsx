import type { Report, ReportContext } from '@proam/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { SmallButton } from '@/components/small-button';
import { ReasonDialog } from '@/components/form/reason-dialog';
import { Inbox, InboxItem } from '@/components/inbox';
import { NextPage, QueryList } from '@/components/infinite-query-list';
import { formatInstantDateTime } from '@/lib/format';
import {
  useGetReportContextsQuery,
  useGetReportsInfiniteQuery,
  useResolveReportMutation,
} from '../admin-api';
import { RESOLUTION_MAX, validateResolve } from '../admin-validation';

type Filter = 'open' | 'resolved';

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'open', label: '未対応' },
  { value: 'resolved', label: '対応済み' },
];

const TARGET_LABELS: Record<Report['targetType'], string> = {
  user: 'プロフィール',
  review: '口コミ',
  message: 'チャットのメッセージ',
};

const profilePath = (id: string) => `/tabs/likes/pro/${encodeURIComponent(id)}`;

/** What was reported: its kind, whose it is, its text and where to see it. */
const ReportedThing = ({
  report,
  ctx,
}: {
  report: Report;
  ctx: ReportContext | undefined;
}) => {
  const who = ctx?.targetUserName;
  const gone = ctx && !who && !ctx.targetText;
  return (
    <div className="report-target">
      <p className="report-target__what">
        <span className="tag">{TARGET_LABELS[report.targetType]}</span>
        {who && (
          <span>
            {report.targetType === 'user' ? '' : '投稿者：'}
            {who}
            {ctx.targetUserType === 'pro'
              ? '（プロ）'
              : ctx.targetUserType === 'amature'
                ? '（アマチュア）'
                : ''}
          </span>
        )}
        {ctx?.rating !== undefined && <span>評価 {ctx.rating} / 5</span>}
      </p>
      {ctx?.targetText && (
        <blockquote className="report-target__text">
          {ctx.targetText}
        </blockquote>
      )}
      {gone && (
        <p className="muted">
          対象はすでに削除されています（ID：{report.targetId}）。
        </p>
      )}
      {report.targetType === 'user' && ctx?.targetUserType === 'pro' && (
        <Link to={profilePath(report.targetId)}>プロフィールを見る</Link>
      )}
      {report.targetType === 'review' && ctx?.proId && (
        <Link to={profilePath(ctx.proId)}>
          口コミが載っているプロフィールを見る
        </Link>
      )}
      {!ctx && <p className="admin-table__id">ID：{report.targetId}</p>}
    </div>
  );
};

/** 対応済みにする: what was done, kept with the report and in the audit log. */
const ResolveDialog = ({
  report,
  onClose,
  onDone,
}: {
  report: Report | null;
  onClose: () => void;
  onDone: (resolved: Report) => void;
}) => {
  const [resolve] = useResolveReportMutation();
  return (
    <ReasonDialog
      target={report}
      title="通報を対応済みにする"
      message="行った対応を記録します。操作履歴にも残ります。"
      confirmLabel="対応済みにする"
      danger={false}
      field={{
        label: '対応内容',
        serverName: 'resolution',
        max: RESOLUTION_MAX,
        placeholder: '口コミを削除し、投稿者に注意しました',
        validate: validateResolve,
        refused: '対応内容をご確認ください。',
      }}
      send={(r, resolution) => resolve({ id: r.id, resolution })}
      failures={{ NotFound: 'この通報は見つかりませんでした。' }}
      failure="保存できませんでした。通信状況をご確認のうえ、もう一度お試しください。"
      onDone={onDone}
      onClose={onClose}
    />
  );
};

/**
 * 通報: members' reports of profiles, reviews and chat messages, newest
 * first a page at a time, and resolving them.
 */
export const ReportList = () => {
  const [filter, setFilter] = useState<Filter>('open');
  const query = useGetReportsInfiniteQuery(
    { status: filter },
    { refetchOnMountOrArgChange: true },
  );
  const reports = query.data?.pages.flat() ?? [];
  const ids = reports.map((r) => r.id);
  const contexts = useGetReportContextsQuery(ids, { skip: ids.length === 0 });
  const ctxById = new Map(contexts.data?.map((c) => [c.id, c]));
  const [toResolve, setToResolve] = useState<Report | null>(null);
  const [status, setStatus] = useState('');

  return (
    <Inbox
      filter={{
        legend: '表示する通報',
        name: 'report-filter',
        options: FILTERS,
        value: filter,
        onChange: (value) => {
          setFilter(value);
          setStatus('');
        },
      }}
      status={status}
    >
      <QueryList
        query={query}
        loading="通報を読み込み中"
        error="通報を読み込めませんでした。"
        items={reports}
        className="inbox"
        label={`${FILTERS.find((f) => f.value === filter)?.label}の通報`}
        empty={
          filter === 'open'
            ? '未対応の通報はありません。'
            : '対応済みの通報はありません。'
        }
        after={<NextPage query={query} />}
      >
        {(r) => {
          const ctx = ctxById.get(r.id);
          const headingId = `report-${r.id}-title`;
          const reasonId = `report-${r.id}-reason`;
          return (
            <InboxItem
              key={r.id}
              headingId={headingId}
              handled={r.status === 'resolved'}
              createdAt={r.createdAt}
              title={`${TARGET_LABELS[r.targetType]}への通報`}
              contact={[
                {
                  label: '通報者',
                  value: ctx?.reporterName ?? r.reporterId,
                },
              ]}
              actions={
                r.status === 'open' && (
                  <SmallButton
                    variant="primary"
                    // Which report: its kind, and its reason (kinds repeat).
                    aria-describedby={`${headingId} ${reasonId}`}
                    onClick={() => setToResolve(r)}
                  >
                    対応済みにする
                  </SmallButton>
                )
              }
            >
              <ReportedThing report={r} ctx={ctx} />
              <p id={reasonId} className="report-reason">
                <span className="report-reason__label">通報の理由</span>
                {r.reason}
              </p>
              {r.resolution && (
                <p className="report-reason">
                  <span className="report-reason__label">対応内容</span>
                  {r.resolution}
                  {r.resolvedAt && `（${formatInstantDateTime(r.resolvedAt)}）`}
                </p>
              )}
            </InboxItem>
          );
        }}
      </QueryList>
      <ResolveDialog
        report={toResolve}
        onClose={() => setToResolve(null)}
        onDone={(resolved) =>
          setStatus(
            `${TARGET_LABELS[resolved.targetType]}への通報を対応済みにしました。`,
          )
        }
      />
    </Inbox>
  );
};
