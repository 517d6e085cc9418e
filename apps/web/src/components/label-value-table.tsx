import type { ReactNode } from 'react';

export type LabelValueRow = { label: string; value: ReactNode };

type LabelValueTableProps = {
  /** Read by screen readers only: the heading above already says it. */
  caption: string;
  rows: readonly LabelValueRow[];
  className: string;
};

/** A table of labelled rows (料金, 特定商取引法に基づく表記): each label a row header, its value beside it. */
export const LabelValueTable = ({
  caption,
  rows,
  className,
}: LabelValueTableProps) => (
  <table className={className}>
    <caption className="visually-hidden">{caption}</caption>
    <tbody>
      {rows.map((r) => (
        <tr key={r.label}>
          <th scope="row">{r.label}</th>
          <td>{r.value}</td>
        </tr>
      ))}
    </tbody>
  </table>
);
