import type { Competition } from '@proam/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { SmallButton } from '@/components/small-button';
import { FormActions } from '@/components/form/form-actions';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { isApiError } from '@/lib/api-error';
import { formatDate, todayInJapan } from '@/lib/format';
import { useUpdateCompetitionMutation } from '../competitions-api';
import {
  COMPETITION_GONE_MSG,
  emptyResultRow,
  hasRowErrors,
  rowsFromResults,
  toResults,
  validateResults,
  type ResultRow,
  type ResultRowErrors,
} from '../competition-validation';

type ResultsEditorProps = {
  competition: Competition;
  onDone: (message: string) => void;
  onCancel: () => void;
};

type Column = 'rank' | 'playerName' | 'score';

const COLUMN_LABELS: Record<Column, string> = {
  rank: '順位',
  playerName: '選手名',
  score: 'スコア',
};

const nextRank = (rows: readonly ResultRow[]): string => {
  const ranks = rows
    .map((r) => Number(r.rank))
    .filter((n) => Number.isInteger(n) && n > 0);
  return String(ranks.length ? Math.max(...ranks) + 1 : 1);
};

/**
 * The results of one competition as an editable table: one row per player
 * (順位, 選手名, スコア), 行を追加 / 行を削除, checked in Japanese before
 * `/competition/update { id, results, status? }` saves them.
 */
export const ResultsEditor = ({
  competition,
  onDone,
  onCancel,
}: ResultsEditorProps) => {
  const [rows, setRows] = useState<ResultRow[]>(() =>
    competition.results.length
      ? rowsFromResults(competition.results)
      : [emptyResultRow('1')],
  );
  const [errors, setErrors] = useState<ResultRowErrors[] | null>(null);
  // Offered checked once the day has come, but never for a draft: 終了
  // publishes it, which takes a choice of its own.
  const isDraft = competition.status === 'draft';
  const [finish, setFinish] = useState(
    competition.status !== 'finished' &&
      !isDraft &&
      competition.date <= todayInJapan(),
  );
  const [serverError, setServerError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [update, { isLoading }] = useUpdateCompetitionMutation();
  const baseId = useId();
  const inputs = useRef(new Map<string, HTMLInputElement | null>());
  const addRef = useRef<HTMLButtonElement>(null);
  const cellId = (key: string, col: Column) => `${baseId}-${key}-${col}`;

  const revalidate = (next: ResultRow[]) => {
    // Once errors are on screen, keep them in step with what is typed.
    if (errors) setErrors(validateResults(next));
  };

  const change = (key: string, col: Column, value: string) => {
    const next = rows.map((r) => (r.key === key ? { ...r, [col]: value } : r));
    setRows(next);
    revalidate(next);
  };

  const addRow = () => {
    const row = emptyResultRow(nextRank(rows));
    const next = [...rows, row];
    // Rendered at once so that focus moves inside this click: a deferred
    // focus() could land after the member (or a test) has begun typing in
    // another cell and carry the keystrokes into the new row.
    flushSync(() => {
      setRows(next);
      revalidate(next);
      setAnnouncement(`${next.length}行目を追加しました。`);
    });
    inputs.current.get(cellId(row.key, 'playerName'))?.focus();
  };

  const removeRow = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    flushSync(() => {
      setRows(next);
      revalidate(next);
      setAnnouncement(`${index + 1}行目を削除しました。`);
    });
    // Focus moves to the row that took its place, or to 行を追加.
    const target = next[Math.min(index, next.length - 1)];
    if (target) inputs.current.get(cellId(target.key, 'rank'))?.focus();
    else addRef.current?.focus();
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setServerError(null);
    const errs = validateResults(rows);
    setErrors(errs);
    if (hasRowErrors(errs)) {
      const i = errs.findIndex((r) => Object.keys(r).length > 0);
      const col = (['rank', 'playerName', 'score'] as const).find(
        (c) => errs[i]?.[c],
      );
      const row = rows[i];
      if (row && col) inputs.current.get(cellId(row.key, col))?.focus();
      return;
    }
    const results = toResults(rows);
    const result = await update({
      id: competition.id,
      results,
      ...(finish ? { status: 'finished' as const } : {}),
    });
    if (result.data === 0) {
      // Nothing had that id any more: deleted meanwhile.
      setServerError(COMPETITION_GONE_MSG);
      return;
    }
    if (result.data !== undefined) {
      onDone(
        `「${competition.name}」の結果（${results.length}名）を保存しました。` +
          (finish ? 'ステータスを「終了」にしました。' : ''),
      );
      return;
    }
    setServerError(
      isApiError(result.error)
        ? result.error.msg
        : '保存できませんでした。時間をおいて再度お試しください。',
    );
  };

  const errorCount = errors
    ? errors.reduce((n, r) => n + Object.keys(r).length, 0)
    : 0;
  const captionId = `${baseId}-caption`;

  return (
    <form className="admin-form" noValidate onSubmit={(e) => void submit(e)}>
      <h2 className="admin-form__title" tabIndex={-1}>
        結果を入力
      </h2>
      <p className="admin-form__lead">
        <strong>{competition.name}</strong>
        <span className="muted">
          （{formatDate(competition.date)}／{competition.venue}）
        </span>
      </p>
      <FormErrorSummary
        errorCount={errorCount}
        serverError={serverError}
        fixHint="赤枠の項目をご確認ください。"
      />
      <div className="table-scroll">
        <table className="results-editor" aria-describedby={captionId}>
          <caption id={captionId} className="visually-hidden">
            {competition.name} の結果入力。1行に1選手を入力します。
          </caption>
          <thead>
            <tr>
              <th scope="col" className="results-editor__rank">
                順位<span className="results-editor__req">必須</span>
              </th>
              <th scope="col">
                選手名<span className="results-editor__req">必須</span>
              </th>
              <th scope="col" className="results-editor__score">
                スコア
              </th>
              <th scope="col" className="results-editor__action">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => {
              const rowErrors = errors?.[i] ?? {};
              const cell = (
                col: Column,
                extra: { inputMode: 'numeric' | 'text'; autoComplete?: string },
              ) => {
                const id = cellId(row.key, col);
                const error = rowErrors[col];
                return (
                  <td
                    className={`results-editor__cell results-editor__cell--${col}`}
                  >
                    <input
                      id={id}
                      ref={(el) => {
                        inputs.current.set(id, el);
                      }}
                      type="text"
                      inputMode={extra.inputMode}
                      autoComplete={extra.autoComplete ?? 'off'}
                      aria-label={`${i + 1}行目の${COLUMN_LABELS[col]}`}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      value={row[col]}
                      onChange={(e) => change(row.key, col, e.target.value)}
                    />
                    {error && (
                      <p id={`${id}-error`} className="results-editor__error">
                        {error}
                      </p>
                    )}
                  </td>
                );
              };
              return (
                <tr key={row.key}>
                  {cell('rank', { inputMode: 'numeric' })}
                  {cell('playerName', { inputMode: 'text' })}
                  {cell('score', { inputMode: 'numeric' })}
                  <td className="results-editor__action">
                    <SmallButton
                      variant="outline-danger"
                      aria-label={`${i + 1}行目を削除`}
                      onClick={() => removeRow(i)}
                    >
                      行を削除
                    </SmallButton>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && (
        <p className="muted">
          行がありません。「行を追加」で選手を追加してください（行がないまま保存すると結果は空になります）。
        </p>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <div className="button-row results-editor__add">
        <button
          ref={addRef}
          type="button"
          className="button button--outline"
          onClick={addRow}
        >
          <span aria-hidden="true">＋</span>
          行を追加
        </button>
      </div>
      <p className="form-field__hint">
        スコアは任意です（例: 68）。全角数字でも入力できます。
      </p>
      {competition.status !== 'finished' && (
        <label className="check-field">
          <input
            type="checkbox"
            checked={finish}
            onChange={(e) => setFinish(e.target.checked)}
          />
          保存と同時にステータスを「終了」にする
          {isDraft && '（公開されます）'}
        </label>
      )}
      <FormActions
        busy={isLoading}
        submitLabel="結果を保存する"
        onCancel={onCancel}
      />
    </form>
  );
};
