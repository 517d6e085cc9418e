import { describe, expect, it } from 'vitest';
import {
  emptyResultRow,
  hasRowErrors,
  toResults,
  validateResults,
  toCompetitionUpdate,
  validateCompetition,
  emptyCompetitionValues,
  type ResultRow,
} from '../competition-validation';

const row = (rank: string, playerName: string, score = ''): ResultRow => ({
  ...emptyResultRow(),
  rank,
  playerName,
  score,
});

describe('validateResults', () => {
  it('accepts ranks of 1 or more with names, and optional integer scores', () => {
    const errors = validateResults([
      row('1', '石川 遼', '66'),
      row('2', '松山 英樹'),
    ]);
    expect(hasRowErrors(errors)).toBe(false);
  });

  it('requires a rank of 1 or more, as an integer', () => {
    const errors = validateResults([
      row('', 'A'),
      row('0', 'B'),
      row('1.5', 'C'),
      row('abc', 'D'),
    ]);
    expect(errors.map((e) => e.rank)).toEqual([
      '順位を入力してください。',
      '順位は1以上の整数で入力してください。',
      '順位は1以上の整数で入力してください。',
      '順位は1以上の整数で入力してください。',
    ]);
  });

  it('flags every row that shares a rank', () => {
    const errors = validateResults([
      row('1', 'A'),
      row('2', 'B'),
      row('1', 'C'),
    ]);
    expect(errors[0]?.rank).toBe('順位が重複しています。');
    expect(errors[1]?.rank).toBeUndefined();
    expect(errors[2]?.rank).toBe('順位が重複しています。');
  });

  it('requires a player name of at most 40 characters', () => {
    const errors = validateResults([
      row('1', '   '),
      row('2', 'あ'.repeat(41)),
      row('3', 'あ'.repeat(40)),
    ]);
    expect(errors[0]?.playerName).toBe('選手名を入力してください。');
    expect(errors[1]?.playerName).toBe(
      '選手名は40文字以内で入力してください。',
    );
    expect(errors[2]?.playerName).toBeUndefined();
  });

  it('rejects a score that is not an integer between -100 and 1000', () => {
    const errors = validateResults([
      row('1', 'A', '68.5'),
      row('2', 'B', '2000'),
    ]);
    expect(errors[0]?.score).toBe(
      'スコアは-100〜1000の整数で入力してください。',
    );
    expect(errors[1]?.score).toBeDefined();
  });

  it('reads full-width digits typed with a Japanese IME', () => {
    const rows = [row('２', 'B', '７０'), row('１', 'A', '－３')];
    expect(hasRowErrors(validateResults(rows))).toBe(false);
    expect(toResults(rows)).toEqual([
      { rank: 1, playerName: 'A', score: -3 },
      { rank: 2, playerName: 'B', score: 70 },
    ]);
  });

  it('builds results in rank order, trimming names and keeping user ids', () => {
    const rows = [row('3', ' C '), { ...row('1', 'A', '65'), userId: 'u-9' }];
    expect(toResults(rows)).toEqual([
      { rank: 1, playerName: 'A', score: 65, userId: 'u-9' },
      { rank: 3, playerName: 'C' },
    ]);
  });
});

describe('validateCompetition', () => {
  it('requires a name, date and venue in Japanese', () => {
    expect(validateCompetition(emptyCompetitionValues())).toEqual({
      name: '大会名を入力してください。',
      date: '開催日を入力してください。',
      venue: '会場を入力してください。',
    });
  });

  it('keeps the entry deadline on or before the date', () => {
    const errors = validateCompetition({
      ...emptyCompetitionValues(),
      name: '大会',
      venue: '会場',
      date: '2026-12-01',
      entryDeadline: '2026-12-02',
      entryFee: '-1',
      capacity: '0',
    });
    expect(errors).toEqual({
      entryDeadline: 'エントリー締切は開催日以前の日付にしてください。',
      entryFee: '参加費は0〜10,000,000円の整数で入力してください。',
      capacity: '定員は1〜10,000の整数で入力してください。',
    });
  });

  it('refuses a deadline the browser holds only in part', () => {
    const values = {
      ...emptyCompetitionValues(),
      name: '大会',
      venue: '会場',
      date: '2026-12-01',
    };
    expect(validateCompetition(values)).toEqual({});
    expect(
      validateCompetition(values, { entryDeadlineIncomplete: true }),
    ).toEqual({
      entryDeadline: 'エントリー締切を最後まで入力してください。',
    });
  });
});

describe('toCompetitionUpdate', () => {
  it('sends every field, an emptied number as null and an emptied text as empty', () => {
    expect(
      toCompetitionUpdate('c-1', {
        ...emptyCompetitionValues(),
        name: ' 大会 ',
        venue: '会場',
        date: '2026-12-01',
        status: 'open',
      }),
    ).toEqual({
      id: 'c-1',
      name: '大会',
      venue: '会場',
      date: '2026-12-01',
      area: '',
      description: '',
      entryDeadline: '',
      entryFee: null,
      capacity: null,
      status: 'open',
    });
    expect(
      toCompetitionUpdate('c-1', {
        ...emptyCompetitionValues(),
        entryFee: '０',
        capacity: '40',
      }),
    ).toMatchObject({ entryFee: 0, capacity: 40 });
  });
});
