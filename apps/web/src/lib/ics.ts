/**
 * One lesson as an iCalendar file (RFC 5545) that calendar apps import: a
 * VCALENDAR with one VEVENT whose times are UTC instants computed from the
 * lesson's Japan-time date and times (Japan has no daylight saving time, so
 * no VTIMEZONE is needed). Lines end in CRLF, text is escaped and long lines
 * are folded at 75 octets without splitting a character.
 * @see {@link https://www.rfc-editor.org/rfc/rfc5545}
 */

export type IcsEvent = {
  /** Stable per lesson, so importing it again updates the same event. */
  uid: string;
  /** The lesson's date and times in Japan time: `YYYY-MM-DD`, `HH:mm`. */
  date: string;
  startTime: string;
  endTime: string;
  summary: string;
  location?: string;
  description?: string;
  /** A link into the app. */
  url?: string;
};

export const PRODUCT_ID = '-//ProAm Connect//Round Lesson//JA';

const JST_OFFSET_HOURS = 9;

/** A Japan-time date and `HH:mm` → the instant, e.g. 2026-11-28 09:00 → 2026-11-28T00:00Z. */
export const japanTimeToUtc = (date: string, time: string): Date => {
  const [y = 0, mo = 1, d = 1] = date.split('-').map(Number);
  const [h = 0, mi = 0] = time.split(':').map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h - JST_OFFSET_HOURS, mi));
};

/** `20261128T000000Z`: a UTC DATE-TIME value. */
export const icsUtc = (instant: Date): string =>
  instant
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

/** A TEXT value: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11). */
export const escapeText = (value: string): string =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

const octets = (codePoint: number): number =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * Splits a content line into lines of at most 75 octets (UTF-8), each
 * continuation starting with a space (RFC 5545 3.1), never inside a character.
 */
export const foldLine = (line: string): string => {
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const n = octets(char.codePointAt(0) ?? 0);
    // The space that starts a continuation line counts toward its 75.
    const limit = parts.length === 0 ? 75 : 74;
    if (size + n > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
};

/** The whole file, CRLF line ends; `now` is the DTSTAMP. */
export const buildIcs = (event: IcsEvent, now: Date = new Date()): string => {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${icsUtc(now)}`,
    `DTSTART:${icsUtc(japanTimeToUtc(event.date, event.startTime))}`,
    `DTEND:${icsUtc(japanTimeToUtc(event.date, event.endTime))}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.description
      ? [`DESCRIPTION:${escapeText(event.description)}`]
      : []),
    // A URI value, not TEXT: it is not escaped.
    ...(event.url ? [`URL:${event.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
};

/** Hands the file to the browser as a download named `fileName`. */
export const downloadIcs = (fileName: string, text: string): void => {
  const blob = new Blob([text], { type: 'text/calendar;charset=utf-8' });
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download.
  window.setTimeout(() => URL.revokeObjectURL(href), 0);
};
