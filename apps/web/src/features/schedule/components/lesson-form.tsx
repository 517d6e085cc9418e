import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PREFECTURES, type Schedule } from '@proam/contract';
import { api } from '@/lib/api';
import { useAppDispatch } from '@/lib/store-hooks';
import { FocusSection } from '@/components/focus-section';
import { SelectField, TextAreaField, TextField } from '@/components/form/field';
import { FormActions } from '@/components/form/form-actions';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { apiErrorOf, fieldOfValidationError } from '@/lib/server-errors';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { errorAlertRaised } from '@/lib/ui-slice';
import {
  CAPACITY,
  CAPACITY_OPTIONS,
  emptyLesson,
  LESSON_FIELDS,
  lessonInput,
  lessonValuesOf,
  NOTE_MAX,
  BOOKED_LOCKED_MESSAGE,
  OVERLAP_MESSAGE,
  OVERLAP_OR_BOOKED_MESSAGE,
  PLACE_MAX,
  validateLesson,
} from '../lesson-validation';
import {
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
} from '../schedule-api';

const LOCKED_HINT = '予約が入っているため変更できません。';

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
  const form = useValidatedForm({
    initialValues: schedule ? lessonValuesOf(schedule) : emptyLesson(date),
    fields: LESSON_FIELDS,
    validate: validateLesson(today, schedule?.date),
  });
  const { values, errors, bind } = form;
  // What the amateurs booked stays as booked: the server keeps it (409).
  const booked = !!schedule && schedule.reservedCount > 0;

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
    // A 409 is a time overlap, or a change to a lesson booked since the
    // form opened; a fee changed with the times unchanged can only be that.
    if (
      error?.code === 'Conflict' &&
      schedule &&
      body.fee !== schedule.fee &&
      body.date === schedule.date &&
      body.startTime === schedule.startTime &&
      body.endTime === schedule.endTime
    ) {
      setFormError(BOOKED_LOCKED_MESSAGE);
      form.markServerError('fee', BOOKED_LOCKED_MESSAGE);
      return;
    }
    if (error?.code === 'Conflict') {
      // Editing, the two causes share the code: both are said, and the
      // lessons are read again (a booking since then shows on its card).
      const message = schedule ? OVERLAP_OR_BOOKED_MESSAGE : OVERLAP_MESSAGE;
      if (schedule) dispatch(api.util.invalidateTags(['Schedule']));
      setFormError(message);
      form.markServerError('startTime', message);
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
    <FocusSection
      id="lesson-form-title"
      title={title}
      headingRef={headingRef}
      className="lesson-form-panel"
      titleClassName="lesson-form-panel__title"
    >
      <form className="lesson-form" noValidate onSubmit={(e) => void submit(e)}>
        <FormErrorSummary errorCount={0} serverError={formError} />
        {booked && <p className="form-note">{BOOKED_LOCKED_MESSAGE}</p>}
        <TextField
          label="日付"
          type="date"
          required
          min={today}
          readOnly={booked}
          hint={booked ? LOCKED_HINT : undefined}
          error={errors.date}
          {...bind('date')}
        />
        <div className="lesson-form__row">
          <TextField
            label="開始時刻"
            type="time"
            required
            step={300}
            readOnly={booked}
            hint={booked ? LOCKED_HINT : undefined}
            error={errors.startTime}
            {...bind('startTime')}
          />
          <TextField
            label="終了時刻"
            type="time"
            required
            step={300}
            readOnly={booked}
            hint={booked ? LOCKED_HINT : undefined}
            error={errors.endTime}
            {...bind('endTime')}
          />
        </div>
        <TextField
          label="ゴルフ場"
          required
          maxLength={PLACE_MAX}
          autoComplete="off"
          placeholder="例）府中カントリークラブ"
          hint={
            booked
              ? '変更すると、予約した方にメールでお知らせします。'
              : undefined
          }
          error={errors.place}
          {...bind('place')}
        />
        <div className="lesson-form__row">
          <SelectField
            label="地域"
            options={PREFECTURES}
            placeholder="選択してください"
            error={errors.area}
            {...bind('area')}
          />
          <SelectField
            label="定員"
            required
            options={CAPACITY_OPTIONS}
            placeholder="選択してください"
            hint={`${CAPACITY[0]}〜${CAPACITY[1]}名`}
            error={errors.capacity}
            {...bind('capacity')}
          />
        </div>
        <TextField
          label="料金 (円)"
          required
          inputMode="numeric"
          autoComplete="off"
          placeholder="例）20000"
          readOnly={booked}
          hint={
            booked
              ? LOCKED_HINT
              : '1名あたりの料金を半角数字で入力してください。'
          }
          error={errors.fee}
          {...bind('fee')}
        />
        <TextAreaField
          label="メモ"
          rows={3}
          max={NOTE_MAX}
          counterFormat={(count, max) => `${count}/${max}`}
          error={errors.note}
          {...bind('note')}
        />
        <FormActions
          busy={busy}
          submitLabel={schedule ? '変更を保存' : '登録する'}
          onCancel={onCancel}
        />
      </form>
    </FocusSection>
  );
};
