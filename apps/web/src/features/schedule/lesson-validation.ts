import {
  ScheduleCreateInputSchema,
  type Schedule,
  type ScheduleCreateInput,
} from '@proam/contract';
import { maxLengthOf, rangeOf, textLength } from '@/lib/contract-limits';
import { isAreaOrNone } from '@/lib/area';
import { groupDigits } from '@/lib/format';

// The API's bounds.
const input = ScheduleCreateInputSchema.properties;
export const PLACE_MAX = maxLengthOf(input.place);
export const NOTE_MAX = maxLengthOf(input.note);
const FEE_MAX = rangeOf(input.fee)[1];
export const CAPACITY = rangeOf(input.capacity);
export const CAPACITY_OPTIONS = Array.from(
  { length: CAPACITY[1] - CAPACITY[0] + 1 },
  (_, i) => String(CAPACITY[0] + i),
);

export const LESSON_FIELDS = [
  'date',
  'startTime',
  'endTime',
  'place',
  'area',
  'capacity',
  'fee',
  'note',
] as const;
export type LessonField = (typeof LESSON_FIELDS)[number];
export type LessonValues = Record<LessonField, string>;

const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

export const emptyLesson = (date: string): LessonValues => ({
  date,
  startTime: '09:00',
  endTime: '14:00',
  place: '',
  area: '',
  capacity: '3',
  fee: '',
  note: '',
});

export const lessonValuesOf = (s: Schedule): LessonValues => ({
  date: s.date,
  startTime: s.startTime,
  endTime: s.endTime,
  place: s.place,
  area: s.area ?? '',
  capacity: String(s.capacity),
  fee: String(s.fee),
  note: s.note ?? '',
});

/** `today` (Japan time) keeps past dates out; an edit may keep its own date. */
export const validateLesson =
  (today: string, originalDate?: string) =>
  (field: LessonField, v: LessonValues): string | undefined => {
    switch (field) {
      case 'date':
        if (!v.date) return '日付を入力してください。';
        if (!DATE_RE.test(v.date)) return '日付を正しく入力してください。';
        if (v.date < today && v.date !== originalDate)
          return '今日以降の日付を選んでください。';
        return undefined;
      case 'startTime':
        if (!v.startTime) return '開始時刻を入力してください。';
        return TIME_RE.test(v.startTime)
          ? undefined
          : '開始時刻を正しく入力してください。';
      case 'endTime':
        if (!v.endTime) return '終了時刻を入力してください。';
        if (!TIME_RE.test(v.endTime))
          return '終了時刻を正しく入力してください。';
        return TIME_RE.test(v.startTime) && v.endTime <= v.startTime
          ? '終了時刻は開始時刻より後にしてください。'
          : undefined;
      case 'place':
        if (!v.place.trim()) return 'ゴルフ場を入力してください。';
        return textLength(v.place) > PLACE_MAX
          ? `ゴルフ場は${PLACE_MAX}文字以内で入力してください。`
          : undefined;
      case 'area':
        return isAreaOrNone(v.area) ? undefined : '地域を選んでください。';
      case 'capacity':
        return CAPACITY_OPTIONS.includes(v.capacity)
          ? undefined
          : `定員は${CAPACITY[0]}〜${CAPACITY[1]}名で選んでください。`;
      case 'fee': {
        const fee = v.fee.trim();
        if (!fee) return '料金を入力してください。';
        if (!/^\d+$/.test(fee))
          return '料金は半角数字（円）で入力してください。';
        return Number(fee) > FEE_MAX
          ? `料金は${groupDigits(FEE_MAX)}円以下で入力してください。`
          : undefined;
      }
      case 'note':
        return textLength(v.note) > NOTE_MAX
          ? `メモは${NOTE_MAX}文字以内で入力してください。`
          : undefined;
    }
  };

/** The create/update body; empty optional fields are sent as cleared. */
export const lessonInput = (v: LessonValues): ScheduleCreateInput => ({
  date: v.date,
  startTime: v.startTime,
  endTime: v.endTime,
  place: v.place.trim(),
  area: v.area as ScheduleCreateInput['area'],
  capacity: Number(v.capacity),
  fee: Number(v.fee.trim()),
  note: v.note,
});

/** The server keeps a booked lesson's day, times and fee (409). */
export const BOOKED_LOCKED_MESSAGE =
  '予約が入っているため、日付・時刻・料金は変更できません。変更が必要な場合は、このレッスンを中止して新しく登録してください。';

/** An edit's 409 that is a time overlap or a booking made meanwhile (one code for both). */
export const OVERLAP_OR_BOOKED_MESSAGE =
  'この時間帯には別のレッスンが登録されているか、この間に予約が入ったため、変更できません。予約が入ったレッスンの日付・時刻・料金は変更できません。';

export const OVERLAP_MESSAGE =
  'この時間帯には別のレッスンが登録されています。時刻を変えてください。';
