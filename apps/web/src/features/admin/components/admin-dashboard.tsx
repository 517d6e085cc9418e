import type { WeeklyStats } from '@proam/contract';
import type { Chart } from 'chart.js';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { QueryState } from '@/components/query-state';
import { formatDate, formatInstantDateTime, toJapanDate } from '@/lib/format';
import { useGetAdminStatsQuery } from '../admin-api';
import { loadChart } from '../chart-loader';
import {
  downloadCsv,
  shortWeek,
  statsCsv,
  STATS_COLUMNS,
  weekEnd,
  type StatsColumn,
} from '../stats-csv';

export const DASHBOARD_WEEKS = 12;

type Series = StatsColumn & { color: string };

type ChartSpec = {
  id: string;
  title: string;
  kind: 'bar' | 'line';
  series: Series[];
};

const COLUMN = Object.fromEntries(
  STATS_COLUMNS.map((c) => [c.key, c]),
) as Record<StatsColumn['key'], StatsColumn>;

// Brand colours (styles/base.css): green for activity, red for cancellations.
const CHARTS: ChartSpec[] = [
  {
    id: 'members',
    title: '新規会員',
    kind: 'bar',
    series: [{ ...COLUMN.newMembers, color: '#176b43' }],
  },
  {
    id: 'bookings',
    title: '予約とキャンセル',
    kind: 'bar',
    series: [
      { ...COLUMN.reservations, color: '#176b43' },
      { ...COLUMN.cancellations, color: '#b3261e' },
    ],
  },
  {
    id: 'reviews',
    title: '口コミ',
    kind: 'bar',
    series: [{ ...COLUMN.reviews, color: '#b97a1c' }],
  },
  {
    id: 'chat',
    title: 'チャットのメッセージ',
    kind: 'line',
    series: [{ ...COLUMN.chatMessages, color: '#0f4d32' }],
  },
];

const today = () => toJapanDate(new Date());

/** One figure as a chart (chart.js, loaded on first use), a table and a CSV. */
const WeeklyChart = ({
  spec,
  weeks,
}: {
  spec: ChartSpec;
  weeks: readonly WeeklyStats[];
}) => {
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  const current = weeks.at(-1);
  const previous = weeks.at(-2);

  useEffect(() => {
    let chart: Chart | null = null;
    let cancelled = false;
    loadChart()
      .then((ChartJs) => {
        const canvas = canvasRef.current;
        if (cancelled || !canvas) return;
        chart = new ChartJs(canvas, {
          type: spec.kind,
          data: {
            labels: weeks.map((w) => shortWeek(w.weekStart)),
            datasets: spec.series.map((s) => ({
              label: s.label,
              data: weeks.map((w) => w[s.key]),
              backgroundColor: s.color,
              borderColor: s.color,
              borderWidth: spec.kind === 'line' ? 2 : 0,
              pointRadius: 3,
              tension: 0.2,
            })),
          },
          options: {
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            plugins: {
              legend: {
                display: spec.series.length > 1,
                position: 'bottom',
              },
              tooltip: {
                callbacks: {
                  title: (items) =>
                    items[0]
                      ? `${formatDate(weeks[items[0].dataIndex]!.weekStart)}〜`
                      : '',
                },
              },
            },
            scales: {
              x: { grid: { display: false } },
              y: { beginAtZero: true, ticks: { precision: 0 } },
            },
          },
        });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [spec, weeks]);

  const total = (key: StatsColumn['key']) =>
    weeks.reduce((sum, w) => sum + w[key], 0);
  const summary = spec.series
    .map((s) => `${s.label}：今週${current?.[s.key] ?? 0}件`)
    .join('、');

  return (
    <section className="dash-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="dash-card__title">
        {spec.title}
      </h3>
      <dl className="dash-card__figures">
        {spec.series.map((s) => (
          <div key={s.key} className="dash-figure">
            <dt>
              <span
                className="dash-figure__swatch"
                style={{ background: s.color }}
                aria-hidden="true"
              />
              {s.label}（今週）
            </dt>
            <dd>
              <span className="dash-figure__value">
                {current?.[s.key] ?? 0}
              </span>
              <span className="dash-figure__sub">
                先週 {previous?.[s.key] ?? 0}・{weeks.length}週計 {total(s.key)}
              </span>
            </dd>
          </div>
        ))}
      </dl>
      {failed ? (
        <p className="dash-card__failed">
          グラフを表示できませんでした。下の表でご覧ください。
        </p>
      ) : (
        <div className="dash-card__chart">
          <canvas
            ref={canvasRef}
            role="img"
            aria-label={`${spec.title}の週ごとの推移（${weeks.length}週間）のグラフ。${summary}。数値は「表で見る」にあります。`}
          />
        </div>
      )}
      <details className="dash-card__table" open={failed || undefined}>
        <summary>表で見る</summary>
        <div className="table-scroll">
          <table className="dash-table">
            <caption className="visually-hidden">
              {spec.title}（週ごと、古い順）
            </caption>
            <thead>
              <tr>
                <th scope="col">週（月曜〜日曜）</th>
                {spec.series.map((s) => (
                  <th key={s.key} scope="col">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((w) => (
                <tr key={w.weekStart}>
                  <th scope="row">
                    {formatDate(w.weekStart)}〜{shortWeek(weekEnd(w.weekStart))}
                  </th>
                  {spec.series.map((s) => (
                    <td key={s.key}>{w[s.key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <button
        type="button"
        className="button button--small button--outline"
        onClick={() =>
          downloadCsv(
            statsCsv(weeks, spec.series),
            `proam-${spec.id}-${today()}.csv`,
          )
        }
      >
        CSVをダウンロード
        <span className="visually-hidden">（{spec.title}）</span>
      </button>
    </section>
  );
};

/**
 * 運営ダッシュボード: the last 12 Japan weeks (Monday to Sunday) of new
 * members, reservations, cancellations, reviews and chat messages.
 */
export const AdminDashboard = () => {
  const { data, isLoading, isError, isFetching, refetch } =
    useGetAdminStatsQuery(
      { weeks: DASHBOARD_WEEKS },
      { refetchOnMountOrArgChange: true },
    );

  return (
    <div className="stack">
      <QueryState
        query={{ isLoading, isError, isFetching, refetch }}
        loading="集計を読み込み中"
        error="集計を読み込めませんでした。"
      >
        {() =>
          data && (
            <>
              <div className="admin-bar">
                <p className="admin-bar__label">
                  直近{data.weeks.length}
                  週間の週ごとの件数です（日本時間、週は月曜日から日曜日。今週は集計時点まで）。
                  <br />
                  <span className="muted">
                    集計：{formatInstantDateTime(data.generatedAt)}
                  </span>
                </p>
                <div className="admin-bar__buttons">
                  <button
                    type="button"
                    className="button button--outline"
                    onClick={() =>
                      downloadCsv(
                        statsCsv(data.weeks),
                        `proam-weekly-stats-${today()}.csv`,
                      )
                    }
                  >
                    全項目をCSVでダウンロード
                  </button>
                </div>
              </div>
              <div className="dash-grid">
                {CHARTS.map((spec) => (
                  <WeeklyChart key={spec.id} spec={spec} weeks={data.weeks} />
                ))}
              </div>
            </>
          )
        }
      </QueryState>
      <section
        className="dash-card dash-card--note"
        aria-labelledby="dash-revenue"
      >
        <h3 id="dash-revenue" className="dash-card__title">
          売上・手数料（月別）
        </h3>
        <p className="muted">
          プロごとの月別の売上・手数料とお支払い予定額は
          <Link to="?section=sales">売上・精算</Link>
          で確認できます。
        </p>
      </section>
    </div>
  );
};
