import type { Statements } from '@proam/contract';
import { Link } from 'react-router';
import { MonthSelect, useMonthParam } from '@/components/month-select';
import { QueryState } from '@/components/query-state';
import { useGetStatementsQuery } from '@/features/payment/payment-records-api';
import { formatYenSuffix, groupDigits } from '@/lib/format';
import { formatMonth, japanMonth } from '@/lib/month';
import { downloadCsv, toCsv } from '../stats-csv';

const CSV_HEADERS = [
  '対象月',
  'プロID',
  'プロ名',
  'レッスン数',
  '参加者数',
  '売上合計',
  '手数料',
  'お支払い予定額',
] as const;

/** The month's transfers as CSV: a BOM, Japanese headers, one row per pro, amounts in yen. */
export const statementsCsv = ({ month, pros }: Statements): string =>
  toCsv([
    CSV_HEADERS,
    ...pros.map((p) => [
      month,
      p.proId,
      p.proName,
      p.lessons,
      p.participants,
      p.grossFee,
      p.commission,
      p.payout,
    ]),
  ]);

type Totals = Record<
  'lessons' | 'participants' | 'grossFee' | 'commission' | 'payout',
  number
>;

const totalsOf = (pros: Statements['pros']): Totals =>
  pros.reduce<Totals>(
    (t, p) => ({
      lessons: t.lessons + p.lessons,
      participants: t.participants + p.participants,
      grossFee: t.grossFee + p.grossFee,
      commission: t.commission + p.commission,
      payout: t.payout + p.payout,
    }),
    { lessons: 0, participants: 0, grossFee: 0, commission: 0, payout: 0 },
  );

/** A pro's figures, or the month's sums: the same cells in a row and in 合計. */
const TotalsCells = ({ totals: t }: { totals: Totals }) => (
  <>
    <td data-label="レッスン数">{groupDigits(t.lessons)}件</td>
    <td data-label="参加者数">{groupDigits(t.participants)}名</td>
    <td data-label="売上合計">{formatYenSuffix(t.grossFee)}</td>
    <td data-label="手数料（10%）">{formatYenSuffix(t.commission)}</td>
    <td data-label="お支払い予定額">{formatYenSuffix(t.payout)}</td>
  </>
);

const StatementsTable = ({ data }: { data: Statements }) => {
  const total = totalsOf(data.pros);
  return (
    <div className="table-scroll">
      <table className="admin-table sales-admin-table">
        <caption className="visually-hidden">
          {formatMonth(data.month)}のプロ別売上（{data.pros.length}名）
        </caption>
        <thead>
          <tr>
            <th scope="col">プロ</th>
            <th scope="col">レッスン数</th>
            <th scope="col">参加者数</th>
            <th scope="col">売上合計</th>
            <th scope="col">手数料（10%）</th>
            <th scope="col">お支払い予定額</th>
            <th scope="col">明細</th>
          </tr>
        </thead>
        <tbody>
          {data.pros.map((p) => (
            <tr key={p.proId}>
              <th scope="row" data-label="プロ">
                {p.proName}
              </th>
              <TotalsCells totals={p} />
              <td data-label="明細">
                <Link
                  to={`/sales?proId=${encodeURIComponent(p.proId)}&month=${data.month}`}
                >
                  売上明細
                  <span className="visually-hidden">（{p.proName}）</span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="sales-admin-table__total">
            <th scope="row" data-label="合計">
              合計
            </th>
            <TotalsCells totals={total} />
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
};

/**
 * 売上・精算 (admins): every pro paid for in the month with what they are
 * owed, a link to each 売上明細, and the CSV for the month's transfers.
 * The month is in the address (`?month=`), so 売上明細 can link back to it.
 */
export const AdminSales = () => {
  const [month, pick] = useMonthParam();
  const query = useGetStatementsQuery(
    { month },
    { refetchOnMountOrArgChange: true },
  );
  // Only this month's answer: another month's must not show while it loads.
  const data = query.currentData;

  return (
    <div className="stack">
      <div className="admin-bar">
        <MonthSelect month={month} onChange={pick} />
        <div className="admin-bar__buttons">
          <button
            type="button"
            className="button button--outline"
            disabled={!data || data.pros.length === 0}
            onClick={() =>
              data &&
              downloadCsv(statementsCsv(data), `proam-sales-${data.month}.csv`)
            }
          >
            CSVダウンロード
          </button>
        </div>
      </div>
      <p className="muted">
        月末締め・翌月末払い。オンラインでお支払い済みの参加者がいるプロを、お支払い予定額の多い順に表示しています（返金されたお支払いは含みません）。
      </p>
      {/* As 売上明細: a lesson still to come may yet be called off or refunded. */}
      {month === japanMonth() && (
        <p className="muted">
          今月分は、開催済みのレッスンのみを集計しています。
        </p>
      )}
      <QueryState
        query={{ ...query, isLoading: query.isFetching && !data }}
        loading="売上を読み込み中"
        error="売上を読み込めませんでした。"
        isEmpty={!data || data.pros.length === 0}
        empty={`${formatMonth(month)}の売上はありません。`}
      >
        {() => data && <StatementsTable data={data} />}
      </QueryState>
    </div>
  );
};
