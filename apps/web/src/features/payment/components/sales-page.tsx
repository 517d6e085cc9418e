import type { Statement } from '@proam/contract';
import { Link, useSearchParams } from 'react-router';
import { MonthSelect, useMonthParam } from '@/components/month-select';
import { NoticeCard } from '@/components/notice-card';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { formatDate, formatYenSuffix, groupDigits } from '@/lib/format';
import { formatMonth, japanMonth, shiftMonth } from '@/lib/month';
import { useAppSelector } from '@/lib/store-hooks';
import { useGetStatementQuery } from '../payment-records-api';

/** The last day of the month after `month`: when its payout is transferred. */
const payoutDay = (month: string): string => {
  const [y, m] = shiftMonth(month, 2).split('-').map(Number) as [
    number,
    number,
  ];
  return new Date(Date.UTC(y, m - 1, 0)).toISOString().slice(0, 10);
};

/**
 * This Japan month counts only the lessons already held (API.md, Payments):
 * one still to come may yet be called off or refunded.
 */
const HELD_SO_FAR = '今月分は、開催済みのレッスンのみを集計しています。';

const StatementTable = ({ statement: s }: { statement: Statement }) => (
  <>
    <div className="table-scroll">
      <table className="sales-table">
        <caption className="visually-hidden">
          {formatMonth(s.month)}のレッスン（{s.lessons.length}件）
        </caption>
        <thead>
          <tr>
            <th scope="col">日付</th>
            <th scope="col">時間</th>
            <th scope="col">場所</th>
            <th scope="col">レッスン料</th>
            <th scope="col">参加者</th>
            <th scope="col">小計</th>
          </tr>
        </thead>
        <tbody>
          {/* A lesson paid at two fees (before fees were fixed once paid) has two lines. */}
          {s.lessons.map((l) => (
            <tr key={`${l.scheduleId}-${l.fee}`}>
              <td data-label="日付">{formatDate(l.date)}</td>
              <td data-label="時間">{l.startTime}〜</td>
              <td data-label="場所">{l.place}</td>
              <td data-label="レッスン料" className="sales-table__num">
                {formatYenSuffix(l.fee)}
              </td>
              <td data-label="参加者" className="sales-table__num">
                {groupDigits(l.participants)}名
              </td>
              <td data-label="小計" className="sales-table__num">
                {formatYenSuffix(l.fee * l.participants)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    <dl className="sales-summary" aria-label={`${formatMonth(s.month)}の集計`}>
      <div>
        <dt>売上合計</dt>
        <dd>{formatYenSuffix(s.grossFee)}</dd>
      </div>
      <div>
        <dt>手数料（10%）</dt>
        <dd>−{formatYenSuffix(s.commission)}</dd>
      </div>
      <div className="sales-summary__payout">
        <dt>お支払い予定額</dt>
        <dd>{formatYenSuffix(s.payout)}</dd>
      </div>
    </dl>
  </>
);

const StatementView = ({
  proId,
  month,
  forAdmin,
}: {
  proId: string;
  month: string;
  forAdmin: boolean;
}) => {
  const query = useGetStatementQuery(
    { proId, month },
    { refetchOnMountOrArgChange: true },
  );
  // Only this month's answer: another month's must not show while it loads.
  const s = query.currentData;
  return (
    <QueryState
      query={{ ...query, isLoading: query.isFetching && !s }}
      loading="売上明細を読み込み中"
      error="売上明細を読み込めませんでした。"
    >
      {() =>
        s && (
          <section className="sales-statement" aria-labelledby="sales-title">
            <h2 id="sales-title" className="sales-statement__title">
              {forAdmin ? `${s.proName}プロ ` : ''}
              {formatMonth(s.month)}の売上明細
            </h2>
            {s.lessons.length === 0 ? (
              <p className="muted">この月の売上はありません。</p>
            ) : (
              <StatementTable statement={s} />
            )}
            {s.month === japanMonth() && (
              <p className="sales-statement__note">{HELD_SO_FAR}</p>
            )}
            <p className="sales-statement__note">
              月末締め・翌月末払い：{formatMonth(s.month)}分は
              {formatDate(payoutDay(s.month))}
              までにお振り込みします。オンラインでお支払い済みの参加者のみが対象です（返金されたお支払いは含みません）。
            </p>
          </section>
        )
      }
    </QueryState>
  );
};

/**
 * `#/sales`: 売上明細 (README, Payments). A pro sees their own month;
 * an admin names the pro with `?proId=` (from 売上・精算). `?month=YYYY-MM`
 * picks the month, this Japan month by default.
 */
export const SalesPage = () => {
  useDocumentTitle('売上明細');
  const me = useAppSelector(selectAuthUser);
  const [params] = useSearchParams();
  const [month, pick] = useMonthParam();
  const isAdmin = me?.type === 'admin';
  const proId = isAdmin ? (params.get('proId') ?? '') : me?.id;

  let body;
  if (me?.type !== 'pro' && !isAdmin)
    body = (
      <NoticeCard
        lead="売上明細はプロ会員の方がご利用いただけます"
        text="レッスンのお支払いの記録は、プロフィールの「支払い履歴」でご確認ください。"
        actions={
          <Link to="/tabs/profile" className="button button--outline">
            プロフィールへ
          </Link>
        }
      />
    );
  else if (!proId)
    body = (
      <NoticeCard
        lead="プロが指定されていません"
        text="管理画面の「売上・精算」から、明細を見るプロを選んでください。"
        actions={
          <Link
            to="/tabs/admin?section=sales"
            className="button button--outline"
          >
            売上・精算へ
          </Link>
        }
      />
    );
  else
    body = (
      <div className="stack">
        <div className="sales-bar">
          <MonthSelect month={month} onChange={pick} />
          {isAdmin && (
            <Link
              to={`/tabs/admin?section=sales&month=${month}`}
              className="button button--outline"
            >
              売上・精算へ戻る
            </Link>
          )}
        </div>
        <StatementView proId={proId} month={month} forAdmin={isAdmin} />
      </div>
    );

  return (
    <>
      <PageHeader
        section="会員メニュー"
        title="売上明細"
        titleRight="SALES"
        description="オンライン決済されたレッスン料の月ごとの明細です。売上合計から手数料（10%）を差し引いた額をお支払いします。"
      />
      <div className="container section sales-page">{body}</div>
    </>
  );
};
