import type { Competition } from '@proam/contract';

type ResultsTableProps = { competition: Competition };

export const ResultsTable = ({ competition }: ResultsTableProps) => {
  const rows = [...competition.results].sort((a, b) => a.rank - b.rank);
  if (rows.length === 0) return <p className="muted">結果は現在集計中です。</p>;
  return (
    <div className="table-scroll">
      <table className="results-table">
        <caption className="visually-hidden">{competition.name} の結果</caption>
        <thead>
          <tr>
            <th scope="col">順位</th>
            <th scope="col">選手名</th>
            <th scope="col">スコア</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={`${r.rank}-${r.playerName}`}
              className={r.rank <= 3 ? `is-top is-rank-${r.rank}` : undefined}
            >
              <td className="results-table__rank">{r.rank}位</td>
              <th scope="row" className="results-table__player">
                {r.playerName}
              </th>
              <td className="results-table__score">{r.score ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};
