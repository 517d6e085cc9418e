import {
  COMPETITION_STATUS,
  PREFECTURES,
  type Competition,
  type CompetitionStatus,
} from '@proam/contract';
import { useRef, useState } from 'react';
import { Field, SelectField, TextField } from '@/components/form/field';
import { FormActions } from '@/components/form/form-actions';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { textLength } from '@/lib/contract-limits';
import { STATUS_LABELS } from '../competition-status';
import {
  useCreateCompetitionMutation,
  useUpdateCompetitionMutation,
} from '../competitions-api';
import {
  COMPETITION_FIELDS,
  COMPETITION_GONE_MSG,
  DESCRIPTION_MAX,
  emptyCompetitionValues,
  toCompetitionInput,
  toCompetitionUpdate,
  validateCompetition,
  valuesFromCompetition,
  type CompetitionValues,
} from '../competition-validation';

type CompetitionFormProps = {
  /** Absent: a new competition. */
  competition?: Competition;
  onDone: (message: string) => void;
  onCancel: () => void;
};

/** 新規作成 and 編集 of one competition (admins). Input is kept on errors. */
export const CompetitionForm = ({
  competition,
  onDone,
  onCancel,
}: CompetitionFormProps) => {
  // A date typed only in part reads as '' (no deadline): the control's
  // validity tells it apart, so it is refused rather than saved as cleared.
  const deadlineRef = useRef<HTMLInputElement | null>(null);
  const { values, errors, errorCount, serverError, idOf, bind, submit } =
    useValidatedForm<CompetitionValues>({
      initialValues: () =>
        competition
          ? valuesFromCompetition(competition)
          : emptyCompetitionValues(),
      validate: (f, v) =>
        validateCompetition(v, {
          entryDeadlineIncomplete: deadlineRef.current?.validity.badInput,
        })[f],
      fields: COMPETITION_FIELDS,
      checkOn: 'submit',
    });
  const [create, createState] = useCreateCompetitionMutation();
  const [update, updateState] = useUpdateCompetitionMutation();
  const busy = createState.isLoading || updateState.isLoading;
  const [gone, setGone] = useState(false);

  const save = (v: CompetitionValues) =>
    competition
      ? update(toCompetitionUpdate(competition.id, v))
      : create(toCompetitionInput(v));

  const announceSaved = (count: number, v: CompetitionValues) => {
    // The update's count: 0 when the competition was deleted meanwhile.
    if (count === 0) {
      setGone(true);
      return;
    }
    onDone(
      `「${toCompetitionInput(v).name}」を${competition ? '保存' : '作成'}しました。`,
    );
  };
  const deadline = bind('entryDeadline');

  const title = competition ? '大会を編集' : '大会を新規作成';

  return (
    <form
      className="admin-form"
      noValidate
      onSubmit={(e) => {
        setGone(false);
        void submit(e, save, announceSaved);
      }}
    >
      <h2 className="admin-form__title" tabIndex={-1}>
        {title}
      </h2>
      <FormErrorSummary
        errorCount={errorCount}
        serverError={gone ? COMPETITION_GONE_MSG : serverError}
      />
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
        <SelectField
          label="開催エリア"
          placeholder="指定なし"
          options={PREFECTURES}
          error={errors.area}
          {...bind('area')}
        />
        <TextField
          label="エントリー締切"
          error={errors.entryDeadline}
          {...deadline}
          ref={(el: HTMLInputElement | null) => {
            deadline.ref(el);
            deadlineRef.current = el;
          }}
          type="date"
        />
        <TextField
          label="参加費（円）"
          error={errors.entryFee}
          hint="無料の場合は 0 を入力します。"
          {...bind('entryFee')}
          type="text"
          inputMode="numeric"
        />
        <TextField
          label="定員（名）"
          error={errors.capacity}
          {...bind('capacity')}
          type="text"
          inputMode="numeric"
        />
        <div className="admin-form__wide">
          <Field
            id={idOf('description')}
            label="大会概要"
            error={errors.description}
            hint={`${textLength(values.description)} / ${DESCRIPTION_MAX}文字`}
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
      <FormActions
        busy={busy}
        submitLabel={competition ? '保存する' : '作成する'}
        onCancel={onCancel}
      />
    </form>
  );
};
