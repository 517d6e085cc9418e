import type { Schedule } from '@proam/contract';
import { formatDate } from '@/lib/format';
import { downloadLessonIcs } from '../lesson-calendar-file';

type AddToCalendarButtonProps = { schedule: Schedule; proName: string };

/** 「カレンダーに追加」: downloads the lesson as an .ics file. */
export const AddToCalendarButton = ({
  schedule: s,
  proName,
}: AddToCalendarButtonProps) => (
  <button
    type="button"
    className="button button--outline"
    onClick={() => downloadLessonIcs(s, proName)}
    aria-label={`${formatDate(s.date)}のレッスンをカレンダーに追加`}
  >
    カレンダーに追加
  </button>
);
