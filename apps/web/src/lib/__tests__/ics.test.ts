import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import {
  buildIcs,
  escapeText,
  foldLine,
  japanTimeToUtc,
  PRODUCT_ID,
  type IcsEvent,
} from '../ics';

const lesson: IcsEvent = {
  uid: 'lesson-L1@proam-connect',
  date: '2026-11-28',
  startTime: '09:00',
  endTime: '14:00',
  summary: 'ラウンドレッスン（山田 太郎プロ）',
  location: '府中カントリークラブ',
  description:
    '料金：20,000円\n予約の確認：https://proam.example.jp/#/tabs/schedule',
  url: 'https://proam.example.jp/#/tabs/schedule',
};
const NOW = new Date('2026-11-20T03:04:05.678Z');

/** The calendar and its one event, as ical.js reads the file. */
const parse = (text: string) => {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { calendar, vevent, event: new ICAL.Event(vevent) };
};

const octets = (s: string) => new TextEncoder().encode(s).length;

describe('buildIcs', () => {
  it('writes a lesson at 09:00 Japan time as 00:00Z, which ical.js reads back', () => {
    const { calendar, vevent, event } = parse(buildIcs(lesson, NOW));
    expect(calendar.name).toBe('vcalendar');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe(PRODUCT_ID);
    expect(event.uid).toBe('lesson-L1@proam-connect');
    expect(event.startDate.toJSDate().toISOString()).toBe(
      '2026-11-28T00:00:00.000Z',
    );
    expect(event.startDate.zone?.tzid).toBe('UTC');
    expect(event.endDate.toJSDate().toISOString()).toBe(
      '2026-11-28T05:00:00.000Z',
    );
    expect(event.summary).toBe('ラウンドレッスン（山田 太郎プロ）');
    expect(event.location).toBe('府中カントリークラブ');
    // Commas and the line break come back unescaped.
    expect(event.description).toBe(lesson.description);
    const stamp = vevent.getFirstPropertyValue('dtstamp') as ICAL.Time;
    expect(stamp.toJSDate().toISOString()).toBe('2026-11-20T03:04:05.000Z');
    expect(vevent.getFirstPropertyValue('url')).toBe(lesson.url);
  });

  it('ends every line in CRLF and keeps each under 75 octets, folding long Japanese text whole', () => {
    const long = {
      ...lesson,
      description: `${'雨天の場合は前日18時までにチャットでご連絡します𠮷⛳️。'.repeat(6)}, ; \\ end`,
    };
    const text = buildIcs(long, NOW);
    expect(text.endsWith('\r\n')).toBe(true);
    // No bare LF or CR.
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.slice(0, -2).split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(75);
    expect(lines.filter((l) => l.startsWith(' ')).length).toBeGreaterThan(3);
    // No character was cut in two (𠮷 is a surrogate pair in JS, 4 octets in UTF-8).
    const loneSurrogate =
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const line of lines) expect(line).not.toMatch(loneSurrogate);
    expect(parse(text).event.description).toBe(long.description);
  });

  it('leaves LOCATION and DESCRIPTION out when there are none', () => {
    const text = buildIcs(
      {
        ...lesson,
        location: undefined,
        description: undefined,
        url: undefined,
      },
      NOW,
    );
    expect(text).not.toMatch(/^(LOCATION|DESCRIPTION|URL):/m);
    expect(parse(text).event.summary).toBe(lesson.summary);
  });
});

describe('the pieces', () => {
  it('escapes backslash, semicolon, comma and line breaks (RFC 5545 3.3.11)', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds at 75 octets and continues with a space', () => {
    const line = `DESCRIPTION:${'あ'.repeat(40)}`;
    const folded = foldLine(line).split('\r\n');
    // 12 ASCII octets + 21 × 3 = 75; the next あ would make 78.
    expect(folded[0]).toBe(`DESCRIPTION:${'あ'.repeat(21)}`);
    expect(folded[1]).toBe(` ${'あ'.repeat(19)}`);
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
  });

  it('turns Japan time into UTC, the day before for early mornings', () => {
    expect(japanTimeToUtc('2026-11-28', '09:00').toISOString()).toBe(
      '2026-11-28T00:00:00.000Z',
    );
    expect(japanTimeToUtc('2026-12-01', '07:30').toISOString()).toBe(
      '2026-11-30T22:30:00.000Z',
    );
  });
});
