import {
  COMPETITION_STATUS,
  CompetitionCreateInputSchema,
  CompetitionResultSchema,
  type Competition,
  type CompetitionCreateInput,
  type CompetitionResult,
  type CompetitionStatus,
  type CompetitionUpdateInput,
} from '@proam/contract';
import { maxLengthOf, rangeOf, textLength } from '@/lib/contract-limits';
import { isAreaOrNone } from '@/lib/area';
import { groupDigits } from '@/lib/format';

/** Full-width digits and minus signs (typed with a Japanese IME) → ASCII. */
export const toHalfWidthNumber = (value: string): string =>
  value
    .trim()
    .replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/[－−ー―]/g, '-')
    .replace(/[,，]/g, '');

/** An integer in [min, max], or undefined for anything else. */
const parseInteger = (
  value: string,
  [min, max]: readonly [number, number],
): number | undefined => {
  const v = toHalfWidthNumber(value);
  if (!/^-?\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= min && n <= max ? n : undefined;
};

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (v: string) =>
  DATE_RE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

/* ---------------------------------------------------------------- results */

/** One row of the results editor, as typed (strings, so input is kept on errors). */
export type ResultRow = {
  /** Stable React key; not sent. */
  key: string;
  rank: string;
  playerName: string;
  score: string;
  /** Kept from the stored result so editing a row does not lose the link. */
  userId?: string;
};

export type ResultRowErrors = {
  rank?: string;
  playerName?: string;
  score?: string;
};

const resultInput = CompetitionResultSchema.properties;
export const PLAYER_NAME_MAX = maxLengthOf(resultInput.playerName);
const RANK = rangeOf(resultInput.rank);
const SCORE = rangeOf(resultInput.score);

let rowSerial = 0;
export const newRowKey = (): string => `row-${++rowSerial}`;

export const emptyResultRow = (rank = ''): ResultRow => ({
  key: newRowKey(),
  rank,
  playerName: '',
  score: '',
});

export const rowsFromResults = (
  results: readonly CompetitionResult[],
): ResultRow[] =>
  [...results]
    .sort((a, b) => a.rank - b.rank)
    .map((r) => ({
      key: newRowKey(),
      rank: String(r.rank),
      playerName: r.playerName,
      score: r.score === undefined ? '' : String(r.score),
      ...(r.userId ? { userId: r.userId } : {}),
    }));

/**
 * Checks every row: 順位 is an integer of 1 or more and unique, 選手名 is
 * required (40 characters at most), スコア is empty or an integer. Returns one
 * error object per row (empty when the row is fine).
 */
export const validateResults = (
  rows: readonly ResultRow[],
): ResultRowErrors[] => {
  const ranks = rows.map((r) => parseInteger(r.rank, RANK));
  const counts = new Map<number, number>();
  for (const n of ranks)
    if (n !== undefined) counts.set(n, (counts.get(n) ?? 0) + 1);
  return rows.map((row, i) => {
    const errors: ResultRowErrors = {};
    const rank = ranks[i];
    if (row.rank.trim() === '') errors.rank = '順位を入力してください。';
    else if (rank === undefined)
      errors.rank = `順位は${RANK[0]}以上の整数で入力してください。`;
    else if ((counts.get(rank) ?? 0) > 1)
      errors.rank = '順位が重複しています。';
    const name = row.playerName.trim();
    if (name === '') errors.playerName = '選手名を入力してください。';
    else if (textLength(name) > PLAYER_NAME_MAX)
      errors.playerName = `選手名は${PLAYER_NAME_MAX}文字以内で入力してください。`;
    if (row.score.trim() !== '' && parseInteger(row.score, SCORE) === undefined)
      errors.score = `スコアは${SCORE[0]}〜${SCORE[1]}の整数で入力してください。`;
    return errors;
  });
};

export const hasRowErrors = (errors: readonly ResultRowErrors[]): boolean =>
  errors.some((e) => Object.keys(e).length > 0);

/** Valid rows → the API's results, in rank order. */
export const toResults = (rows: readonly ResultRow[]): CompetitionResult[] =>
  rows
    .map((r) => {
      const score = parseInteger(r.score, SCORE);
      const result: CompetitionResult = {
        rank: parseInteger(r.rank, RANK) ?? 0,
        playerName: r.playerName.trim(),
      };
      if (r.userId) result.userId = r.userId;
      if (score !== undefined) result.score = score;
      return result;
    })
    .sort((a, b) => a.rank - b.rank);

/* ------------------------------------------------------------ competition */

export type CompetitionValues = {
  name: string;
  date: string;
  venue: string;
  area: string;
  description: string;
  capacity: string;
  entryFee: string;
  entryDeadline: string;
  status: CompetitionStatus;
};

export type CompetitionField = keyof CompetitionValues;
export type CompetitionErrors = Partial<Record<CompetitionField, string>>;

export const COMPETITION_FIELDS: readonly CompetitionField[] = [
  'name',
  'date',
  'venue',
  'area',
  'status',
  'entryDeadline',
  'entryFee',
  'capacity',
  'description',
];

const input = CompetitionCreateInputSchema.properties;
const NAME_MAX = maxLengthOf(input.name);
const VENUE_MAX = maxLengthOf(input.venue);
export const DESCRIPTION_MAX = maxLengthOf(input.description);
const ENTRY_FEE = rangeOf(input.entryFee);
const CAPACITY = rangeOf(input.capacity);

export const emptyCompetitionValues = (): CompetitionValues => ({
  name: '',
  date: '',
  venue: '',
  area: '',
  description: '',
  capacity: '',
  entryFee: '',
  entryDeadline: '',
  status: 'draft',
});

export const valuesFromCompetition = (c: Competition): CompetitionValues => ({
  name: c.name,
  date: c.date,
  venue: c.venue,
  area: c.area ?? '',
  description: c.description ?? '',
  capacity: c.capacity === undefined ? '' : String(c.capacity),
  entryFee: c.entryFee === undefined ? '' : String(c.entryFee),
  entryDeadline: c.entryDeadline ?? '',
  status: c.status,
});

/** What the browser knows of a control beyond its value. */
export type CompetitionInputState = {
  /**
   * エントリー締切 holds a date typed only in part (`validity.badInput`): its
   * value reads '' although the admin typed something.
   */
  entryDeadlineIncomplete?: boolean;
};

/** /competition/update answered 0: nothing has that id any more. */
export const COMPETITION_GONE_MSG =
  'この大会は見つかりませんでした（削除された可能性があります）。';

export const validateCompetition = (
  v: CompetitionValues,
  { entryDeadlineIncomplete = false }: CompetitionInputState = {},
): CompetitionErrors => {
  const e: CompetitionErrors = {};
  if (v.name.trim() === '') e.name = '大会名を入力してください。';
  else if (textLength(v.name) > NAME_MAX)
    e.name = `大会名は${NAME_MAX}文字以内で入力してください。`;
  if (v.date === '') e.date = '開催日を入力してください。';
  else if (!isDate(v.date)) e.date = '開催日を正しい日付で入力してください。';
  if (v.venue.trim() === '') e.venue = '会場を入力してください。';
  else if (textLength(v.venue) > VENUE_MAX)
    e.venue = `会場は${VENUE_MAX}文字以内で入力してください。`;
  if (!isAreaOrNone(v.area)) e.area = '開催エリアは一覧から選んでください。';
  if (!COMPETITION_STATUS.includes(v.status))
    e.status = 'ステータスを選んでください。';
  if (v.entryDeadline === '' && entryDeadlineIncomplete)
    e.entryDeadline = 'エントリー締切を最後まで入力してください。';
  else if (v.entryDeadline !== '') {
    if (!isDate(v.entryDeadline))
      e.entryDeadline = 'エントリー締切を正しい日付で入力してください。';
    else if (isDate(v.date) && v.entryDeadline > v.date)
      e.entryDeadline = 'エントリー締切は開催日以前の日付にしてください。';
  }
  if (
    v.entryFee.trim() !== '' &&
    parseInteger(v.entryFee, ENTRY_FEE) === undefined
  )
    e.entryFee = `参加費は${groupDigits(ENTRY_FEE[0])}〜${groupDigits(ENTRY_FEE[1])}円の整数で入力してください。`;
  if (
    v.capacity.trim() !== '' &&
    parseInteger(v.capacity, CAPACITY) === undefined
  )
    e.capacity = `定員は${groupDigits(CAPACITY[0])}〜${groupDigits(CAPACITY[1])}の整数で入力してください。`;
  if (textLength(v.description) > DESCRIPTION_MAX)
    e.description = `大会概要は${DESCRIPTION_MAX}文字以内で入力してください。`;
  return e;
};

/**
 * Valid values → the body of `/competition/create`. Empty optional text is
 * sent as '' (stored as nothing); empty numbers are left out.
 */
export const toCompetitionInput = (
  v: CompetitionValues,
): CompetitionCreateInput => {
  const input: CompetitionCreateInput = {
    name: v.name.trim(),
    date: v.date,
    venue: v.venue.trim(),
    area: v.area as CompetitionCreateInput['area'],
    description: v.description.trim(),
    entryDeadline: v.entryDeadline,
    status: v.status,
  };
  const fee = parseInteger(v.entryFee, ENTRY_FEE);
  const capacity = parseInteger(v.capacity, CAPACITY);
  if (fee !== undefined) input.entryFee = fee;
  if (capacity !== undefined) input.capacity = capacity;
  return input;
};

/**
 * Valid values → the body of `/competition/update` for competition `id`:
 * every field, an emptied one sent so that the edit clears it ('' for text
 * and the deadline, `null` for 参加費 and 定員; left out, it would be kept).
 */
export const toCompetitionUpdate = (
  id: string,
  v: CompetitionValues,
): CompetitionUpdateInput => {
  const { entryFee = null, capacity = null, ...rest } = toCompetitionInput(v);
  return { id, ...rest, entryFee, capacity };
};
