import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PREFECTURES, type Schedule } from '@proam/contract';
import { useAppDispatch } from '@/app/hooks';
import {
  SelectField,
  TextField,
} from '@/features/auth/components/form-controls';
import {
  apiErrorOf,
  fieldOfValidationError,
} from '@/features/auth/server-errors';
import { useFormState } from '@/features/auth/use-form-state';
import { errorAlertRaised } from '@/lib/ui-slice';
import {
  CAPACITY_OPTIONS,
  emptyLesson,
  LESSON_FIELDS,
  lessonInput,
  lessonValuesOf,
  NOTE_MAX,
  OVERLAP_MESSAGE,
  PLACE_MAX,
  validateLesson,
} from '../lesson-validation';
import {
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
} from '../schedule-api';
import { FormActions } from '@/components/form-actions';

type LessonFormProps = {
  /** The lesson being edited; absent for 新規レッスン. */
  schedule?: Schedule;
  /** The day chosen in the calendar, the new lesson's date. */
  date: string;
  today: string;
  onDone: (saved: Schedule) => void;
  onCancel: () => void;
};

/**
 * Creates or edits a lesson. Mistakes are shown per field (in Japanese) and
 * the input stays; an overlapping time (409 Conflict) is explained.
 */
export const LessonForm = ({
  schedule,
  date,
  today,
  onDone,
  onCancel,
}: LessonFormProps) => {
  const dispatch = useAppDispatch();
  const [create, createState] = useCreateScheduleMutation();
  const [update, updateState] = useUpdateScheduleMutation();
  const busy = createState.isLoading || updateState.isLoading;
  const [formError, setFormError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const form = useFormState(
    schedule ? lessonValuesOf(schedule) : emptyLesson(date),
    LESSON_FIELDS,
    validateLesson(today, schedule?.date),
  );
  const { values, errors, setValue, blur, register } = form;

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validateForm()) return;
    const body = lessonInput(values);
    const result = schedule
      ? await update({ id: schedule.id, ...body })
      : await create(body);
    if (result.data) {
      onDone(result.data);
      return;
    }
    const error = apiErrorOf(result);
    if (error?.code === 'Conflict') {
      setFormError(OVERLAP_MESSAGE);
      form.markServerError('startTime', OVERLAP_MESSAGE);
      return;
    }
    const field = fieldOfValidationError(error, LESSON_FIELDS);
    if (field) {
      const message =
        field === 'capacity'
          ? '定員は予約済みの人数より少なくできません。'
          : (validateLesson(today)(field, values) ??
            '入力内容をご確認ください。');
      form.markServerError(field, message);
      return;
    }
    if (error) dispatch(errorAlertRaised(error));
  };

  const title = schedule ? 'レッスンを編集' : '新規レッスン';
  return (
    <section className="lesson-form-panel" aria-labelledby="lesson-form-title">
      <h2
        id="lesson-form-title"
        ref={headingRef}
        tabIndex={-1}
        className="lesson-form-panel__title"
      >
        {title}
      </h2>
      <form className="lesson-form" noValidate onSubmit={submit}>
        {formError && (
          <div className="form-alert" role="alert">
            <p>{formError}</p>
          </div>
        )}
        <TextField
          id="lesson-date"
          label="日付"
          type="date"
          required
          min={today}
          value={values.date}
          error={errors.date}
          inputRef={register('date')}
          onChange={(e) => setValue('date', e.target.value)}
          onBlur={() => blur('date')}
        />
        <div className="lesson-form__row">
          <TextField
            id="lesson-start"
            label="開始時刻"
            type="time"
            required
            step={300}
            value={values.startTime}
            error={errors.startTime}
            inputRef={register('startTime')}
            onChange={(e) => setValue('startTime', e.target.value)}
            onBlur={() => blur('startTime')}
          />
          <TextField
            id="lesson-end"
            label="終了時刻"
            type="time"
            required
            step={300}
            value={values.endTime}
            error={errors.endTime}
            inputRef={register('endTime')}
            onChange={(e) => setValue('endTime', e.target.value)}
            onBlur={() => blur('endTime')}
          />
        </div>
        <TextField
          id="lesson-place"
          label="ゴルフ場"
          required
          maxLength={PLACE_MAX}
          autoComplete="off"
          placeholder="例）府中カントリークラブ"
          value={values.place}
          error={errors.place}
          inputRef={register('place')}
          onChange={(e) => setValue('place', e.target.value)}
          onBlur={() => blur('place')}
        />
        <div className="lesson-form__row">
          <SelectField
            id="lesson-area"
            label="地域"
            value={values.area}
            options={PREFECTURES}
            placeholder="選択してください"
            error={errors.area}
            selectRef={register('area')}
            onChange={(v) => setValue('area', v)}
          />
          <SelectField
            id="lesson-capacity"
            label="定員"
            required
            value={values.capacity}
            options={CAPACITY_OPTIONS}
            placeholder="選択してください"
            hint="1〜4名"
            error={errors.capacity}
            selectRef={register('capacity')}
            onChange={(v) => setValue('capacity', v)}
          />
        </div>
        <TextField
          id="lesson-fee"
          label="料金 (円)"
          required
          inputMode="numeric"
          autoComplete="off"
          placeholder="例）20000"
          hint="1名あたりの料金を半角数字で入力してください。"
          value={values.fee}
          error={errors.fee}
          inputRef={register('fee')}
          onChange={(e) => setValue('fee', e.target.value)}
          onBlur={() => blur('fee')}
        />
        <div className="form-field">
          <label htmlFor="lesson-note" className="form-field__label">
            メモ<span className="badge-optional">任意</span>
          </label>
          <textarea
            id="lesson-note"
            ref={register('note')}
            rows={3}
            value={values.note}
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={
              errors.note
                ? 'lesson-note-error lesson-note-count'
                : 'lesson-note-count'
            }
            onChange={(e) => setValue('note', e.target.value)}
            onBlur={() => blur('note')}
          />
          <p
            id="lesson-note-count"
            className={`form-field__counter${values.note.length > NOTE_MAX ? ' is-over' : ''}`}
          >
            {values.note.length}/{NOTE_MAX}
          </p>
          {errors.note && (
            <p id="lesson-note-error" className="form-field__error">
              {errors.note}
            </p>
          )}
        </div>
        <FormActions
          busy={busy}
          submitLabel={schedule ? '変更を保存' : '登録する'}
          onCancel={onCancel}
        />
      </form>
    </section>
  );
};
