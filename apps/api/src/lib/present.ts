/**
 * `{ [key]: v }` when the value is there, `{}` when it is null, undefined or
 * "": optional contract fields are left out rather than sent empty.
 */
export const present = <K extends string, V>(key: K, v: V | null | undefined) =>
  (v === null || v === undefined || v === '' ? {} : { [key]: v }) as Partial<
    Record<K, V>
  >;

/**
 * The fields `keys` of `row` that are there, as `present` judges each: the
 * optional contract fields of a row copied under their own names.
 */
export function presentOf<R, K extends keyof R & string>(
  row: R,
  keys: readonly K[],
): Partial<{ [P in K]: NonNullable<R[P]> }> {
  const out: Partial<{ [P in K]: NonNullable<R[P]> }> = {};
  for (const k of keys) Object.assign(out, present(k, row[k]));
  return out;
}
