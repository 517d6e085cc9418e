/**
 * `{ [key]: v }` when the value is there, `{}` when it is null, undefined or
 * "": optional contract fields are left out rather than sent empty.
 */
export const present = <K extends string, V>(key: K, v: V | null | undefined) =>
  (v === null || v === undefined || v === '' ? {} : { [key]: v }) as Partial<
    Record<K, V>
  >;
