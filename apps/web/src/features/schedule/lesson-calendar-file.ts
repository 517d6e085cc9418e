import type { Schedule } from '@proam/contract';
import { formatYenSuffix } from '@/lib/format';
import { buildIcs, downloadIcs, type IcsEvent } from '@/lib/ics';
import { formatCancelDeadline } from './booking-rules';

/** The app's page of one's reservations, as a full URL for outside the app. */
export const reservationsUrl = (): string =>
  new URL('#/tabs/schedule', window.location.href).href;

/** A reserved lesson as a calendar event: 「ラウンドレッスン（山田 太郎プロ）」 at the course. */
export const lessonEvent = (
  s: Schedule,
  proName: string,
  appUrl: string,
): IcsEvent => ({
  uid: `lesson-${s.id}@proam-connect`,
  date: s.date,
  startTime: s.startTime,
  endTime: s.endTime,
  summary: `ラウンドレッスン（${proName}）`,
  location: s.place,
  description: [
    `${proName}とのラウンドレッスン（ProAm Connect）`,
    `料金：${formatYenSuffix(s.fee)}`,
    `キャンセル期限：${formatCancelDeadline(s.date)}`,
    `予約の確認・チャット：${appUrl}`,
  ].join('\n'),
  url: appUrl,
});

export const lessonFileName = (s: Schedule): string =>
  `proam-lesson-${s.date}-${s.startTime.replace(':', '')}.ics`;

/** Downloads the lesson's .ics file. */
export const downloadLessonIcs = (s: Schedule, proName: string): void =>
  downloadIcs(
    lessonFileName(s),
    buildIcs(lessonEvent(s, proName, reservationsUrl())),
  );
