import {
  COMPETITION_STATUS,
  PREFECTURES,
  type Competition,
  type CompetitionStatus,
} from '@proam/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Field } from '@/components/field';
import { isApiError } from '@/lib/api-error';
import { STATUS_LABELS } from '../competition-status';
import {
  useCreateCompetitionMutation,
  useUpdateCompetitionMutation,
} from '../competitions-api';
import {
  COMPETITION_FIELDS,
  DESCRIPTION_MAX,
  emptyCompetitionValues,
  toCompetitionInput,
  validateCompetition,
  valuesFromCompetition,
  type CompetitionErrors,
  type CompetitionField,
  type CompetitionValues,
} from '../competition-validation';

type CompetitionFormProps = {
  /** Absent: a new competition. */
  competition?: Competition;
  onDone: (message: string) => void;
  onCancel: () => void;
};

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** 新規作成 and 編集 of one competition (admins). Input is kept on errors. */
export const CompetitionForm = ({
  competition,
  onDone,
  onCancel,
}: CompetitionFormProps) => {
  const [values, setValues] = useState<CompetitionValues>(() =>
    competition ? valuesFromCompetition(competition) : emptyCompetitionValues(),
  );
  const [errors, setErrors] = useState<CompetitionErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [create, createState] = useCreateCompetitionMutation();
  const [update, updateState] = useUpdateCompetitionMutation();
  const busy = createState.isLoading || updateState.isLoading;
  const baseId = useId();
  const refs = useRef<Partial<Record<CompetitionField, Control | null>>>({});
  const idOf = (f: CompetitionField) => `${baseId}-${f}`;

  const set = (field: CompetitionField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field])
      setErrors((prev) => ({
        ...prev,
        [field]: validateCompetition(next)[field],
      }));
  };

  const bind = (field: CompetitionField) => ({
    name: field,
    value: values[field],
    onChange: (e: { target: { value: string } }) => set(field, e.target.value),
    ref: (el: Control | null) => {
      refs.current[field] = el;
    },
  });

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setServerError(null);
    const errs = validateCompetition(values);
    setErrors(errs);
    const first = COMPETITION_FIELDS.find((f) => errs[f]);
    if (first) {
      refs.current[first]?.focus();
      return;
    }
    const input = toCompetitionInput(values);
    const result = competition
      ? await update({ id: competition.id, ...input })
      : await create(input);
    if ('data' in result && result.data !== undefined) {
      onDone(
        competition
          ? `「${input.name}」を保存しました。`
          : `「${input.name}」を作成しました。`,
      );
      return;
    }
    const err = 'error' in result ? result.error : undefined;
    setServerError(
      isApiError(err)
        ? err.msg
        : '保存できませんでした。時間をおいて再度お試しください。',
    );
  };

  const errorCount = Object.values(errors).filter(Boolean).length;
  const title = competition ? '大会を編集' : '大会を新規作成';

  return (
    <form className="admin-form" noValidate onSubmit={(e) => void submit(e)}>
      <h2 className="admin-form__title" tabIndex={-1}>
        {title}
      </h2>
      {(errorCount > 0 || serverError) && (
        <div className="form-alert" role="alert">
          {errorCount > 0 && (
            <p>
              入力内容に{errorCount}件の誤りがあります。各項目をご確認ください。
            </p>
          )}
          {serverError && <p>{serverError}</p>}
        </div>
      )}
      <div className="admin-form__grid">
        <div className="admin-form__wide">
          <Field id={idOf('name')} label="大会名" required error={errors.name}>
            {(p) => (
              <input {...p} {...bind('name')} type="text" autoComplete="off" />
            )}
          </Field>
        </div>
        <Field id={idOf('date')} label="開催日" required error={errors.date}>
          {(p) => <input {...p} {...bind('date')} type="date" />}
        </Field>
        <Field
          id={idOf('status')}
          label="ステータス"
          required
          error={errors.status}
        >
          {(p) => (
            <select {...p} {...bind('status')}>
              {COMPETITION_STATUS.map((s: CompetitionStatus) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="admin-form__wide">
          <Field id={idOf('venue')} label="会場" required error={errors.venue}>
            {(p) => (
              <input {...p} {...bind('venue')} type="text" autoComplete="off" />
            )}
          </Field>
        </div>
        <Field id={idOf('area')} label="開催エリア" error={errors.area}>
          {(p) => (
            <select {...p} {...bind('area')}>
              <option value="">指定なし</option>
              {PREFECTURES.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id={idOf('entryDeadline')}
          label="エントリー締切"
          error={errors.entryDeadline}
        >
          {(p) => <input {...p} {...bind('entryDeadline')} type="date" />}
        </Field>
        <Field
          id={idOf('entryFee')}
          label="参加費（円）"
          error={errors.entryFee}
          hint="無料の場合は 0 を入力します。"
        >
          {(p) => (
            <input
              {...p}
              {...bind('entryFee')}
              type="text"
              inputMode="numeric"
            />
          )}
        </Field>
        <Field id={idOf('capacity')} label="定員（名）" error={errors.capacity}>
          {(p) => (
            <input
              {...p}
              {...bind('capacity')}
              type="text"
              inputMode="numeric"
            />
          )}
        </Field>
        <div className="admin-form__wide">
          <Field
            id={idOf('description')}
            label="大会概要"
            error={errors.description}
            hint={`${[...values.description].length} / ${DESCRIPTION_MAX}文字`}
          >
            {(p) => <textarea {...p} {...bind('description')} rows={5} />}
          </Field>
        </div>
      </div>
      {values.status === 'draft' && (
        <p className="muted admin-form__note">
          「下書き」は管理者だけに表示されます。公開するとイベント日程・結果ページに掲載されます。
        </p>
      )}
      <div className="button-row">
        <button
          type="submit"
          className="button button--primary"
          disabled={busy}
        >
          {busy ? '保存中…' : competition ? '保存する' : '作成する'}
        </button>
        <button
          type="button"
          className="button button--outline"
          onClick={onCancel}
          disabled={busy}
        >
          キャンセル
        </button>
      </div>
    </form>
  );
};
