import { Type, type Static, type TProperties, type TSchema } from 'typebox';
import { ERROR_CODES } from './errors.js';

/**
 * Characters that draw nothing: white space, zero-width and joiner
 * characters, the BOM, Hangul and braille fillers. A text made only of these
 * looks empty to the person reading it.
 */
const INVISIBLE =
  '\\s\\u00AD\\u115F\\u1160\\u180E\\u200B-\\u200F\\u2060-\\u2064\\u2800\\u3164\\uFEFF\\uFFA0';
/**
 * Control characters no person types: C0 except tab and line breaks, DEL, C1,
 * and the bidirectional overrides and isolates that reorder what others read.
 */
const CONTROLS =
  '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069';
/** Free text: at least one visible character and no control characters. */
export const TEXT_PATTERN = `^(?=[\\s\\S]*[^${INVISIBLE}])[^${CONTROLS}]*$`;

/**
 * Free text as docs/api.md bounds it: trimmed by the API before validation
 * (`x-trim`), and never only white space. NUL and lone surrogates are refused
 * for every string by the API's input stage, so they need no pattern here.
 */
export const Text = (opts: {
  min?: number;
  max: number;
  description?: string;
}) =>
  Type.String({
    minLength: opts.min ?? 1,
    maxLength: opts.max,
    pattern: opts.min === 0 ? `^[^${CONTROLS}]*$` : TEXT_PATTERN,
    'x-trim': true,
    ...(opts.description ? { description: opts.description } : {}),
  });

/**
 * One line of text (names, titles, labels): no control characters, so a value
 * can never smuggle a header line into a mail (docs/security.md RC-08).
 */
export const Line = (opts: { max: number; description?: string }) =>
  Type.String({
    minLength: 1,
    maxLength: opts.max,
    pattern: `^(?=.*[^${INVISIBLE}])[^\\u0000-\\u001F${CONTROLS}]+$`,
    'x-trim': true,
    ...(opts.description ? { description: opts.description } : {}),
  });

/** An optional single line that may be sent empty ("") to clear it. */
export const OptionalLine = (max: number) =>
  Type.String({
    maxLength: max,
    pattern: '^[^\\u0000-\\u001F\\u007F]*$',
    'x-trim': true,
  });

/** Optional free text that may be sent empty (""), e.g. a bio that was cleared. */
export const OptionalText = (max: number) =>
  Type.String({
    maxLength: max,
    pattern: `^[^${CONTROLS}]*$`,
    'x-trim': true,
  });

export const IdSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
});

/** `YYYY-MM-DD`, a calendar date in Japan time. */
export const DateSchema = Type.String({
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  format: 'date',
});
/** `HH:mm`. */
export const TimeSchema = Type.String({
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
});
/** An instant, ISO-8601 in UTC. */
export const InstantSchema = Type.String({ format: 'date-time' });
/** When a stored record was made and last changed. */
export const Timestamps = {
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
};
/** The same times echoed back by a client in an input: accepted and ignored. */
export const EchoedTimestamps = {
  createdAt: Type.Optional(Type.String({ maxLength: 40 })),
  updatedAt: Type.Optional(Type.String({ maxLength: 40 })),
};

export const EmailSchema = Type.String({
  minLength: 3,
  maxLength: 254,
  format: 'email',
  'x-trim': true,
});
/** Yen, an integer. */
export const MoneySchema = Type.Integer({ minimum: 0, maximum: 10_000_000 });

export const PageSchema = Type.Integer({ minimum: 1, maximum: 100_000 });
export const sizeSchema = (max: number, def: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: def });
/** The fields a list call ends with: which page, and how many rows a page holds. */
export const Paging = (maxSize: number, defaultSize: number) => ({
  page: Type.Optional(PageSchema),
  size: Type.Optional(sizeSchema(maxSize, defaultSize)),
});

/** A closed set of strings, typed as their union (TypeBox cannot infer one from a mapped array). */
/** A call's input: fields beyond those it names are refused, never ignored. */
export const InputObject = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

export const StringEnum = <T extends string>(
  values: readonly T[],
  description?: string,
) =>
  Type.Unsafe<T>({
    type: 'string',
    enum: [...values],
    ...(description ? { description } : {}),
  });

export const ErrorCodeSchema = StringEnum(ERROR_CODES);

export const NgEnvelopeSchema = Type.Object({
  status: Type.Literal('NG'),
  code: ErrorCodeSchema,
  reqId: Type.String(),
  msg: Type.String(),
});
export type NgEnvelope = Static<typeof NgEnvelopeSchema>;

export const OkEnvelope = <T extends TSchema>(body: T) =>
  Type.Object({
    status: Type.Literal('OK'),
    reqId: Type.String(),
    body,
  });
export type OkEnvelopeOf<T> = { status: 'OK'; reqId: string; body: T };
export type Envelope<T> = OkEnvelopeOf<T> | NgEnvelope;

export const DeletedCountSchema = Type.Object({ deletedCount: Type.Integer() });
export const UpdatedCountSchema = Type.Object({ updatedCount: Type.Integer() });

/** The 47 prefectures, in the conventional north-to-south order. */
export const PREFECTURES = [
  '北海道',
  '青森県',
  '岩手県',
  '宮城県',
  '秋田県',
  '山形県',
  '福島県',
  '茨城県',
  '栃木県',
  '群馬県',
  '埼玉県',
  '千葉県',
  '東京都',
  '神奈川県',
  '新潟県',
  '富山県',
  '石川県',
  '福井県',
  '山梨県',
  '長野県',
  '岐阜県',
  '静岡県',
  '愛知県',
  '三重県',
  '滋賀県',
  '京都府',
  '大阪府',
  '兵庫県',
  '奈良県',
  '和歌山県',
  '鳥取県',
  '島根県',
  '岡山県',
  '広島県',
  '山口県',
  '徳島県',
  '香川県',
  '愛媛県',
  '高知県',
  '福岡県',
  '佐賀県',
  '長崎県',
  '熊本県',
  '大分県',
  '宮崎県',
  '鹿児島県',
  '沖縄県',
] as const;
export type Prefecture = (typeof PREFECTURES)[number];
export const PrefectureSchema = StringEnum(PREFECTURES);

/** A password exactly as typed: never trimmed or case-folded (docs/security.md AU-02). */
export const PasswordSchema = Type.String({ minLength: 8, maxLength: 128 });
