import { PREFECTURES } from '@proam/contract';

/** An area the API takes: none ('') or one of the 47 prefectures. */
export const isAreaOrNone = (value: string): boolean =>
  value === '' || (PREFECTURES as readonly string[]).includes(value);
