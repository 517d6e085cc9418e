/**
 * The bounds of the API's inputs, read from the contract's schemas so the web
 * never re-types a number the server checks, and counted the way it counts.
 */

/**
 * Characters as the API counts them: its validator (Ajv) counts Unicode code
 * points, so 𠮷 or 😀 is one character (`String#length` says two).
 */
export const charCount = (value: string): number => [...value].length;

/** The length the API checks of free text, which it trims first (`x-trim`). */
export const textLength = (value: string): number => charCount(value.trim());

type Bounds = {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Bounds[];
};

/** One bound of a schema, or of the member of a union that has it (`X | null`, `X | ''`). */
const bound = (schema: unknown, key: Exclude<keyof Bounds, 'anyOf'>) => {
  const s = schema as Bounds;
  const found = s[key] ?? s.anyOf?.find((m) => m[key] !== undefined)?.[key];
  if (found === undefined)
    throw new Error(`The contract's schema has no ${key}.`);
  return found;
};

/** `maxLength` of a contract string schema. */
export const maxLengthOf = (schema: unknown): number =>
  bound(schema, 'maxLength');

/** `minLength` of a contract string schema. */
export const minLengthOf = (schema: unknown): number =>
  bound(schema, 'minLength');

/** `[minimum, maximum]` of a contract integer schema. */
export const rangeOf = (schema: unknown): readonly [number, number] => [
  bound(schema, 'minimum'),
  bound(schema, 'maximum'),
];
