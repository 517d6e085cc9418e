/** The page fields of a list call's input (the contract's PageInput): 1-based. */
export type PageInput = { page?: number; size?: number };

/** The rows one page of a list holds. */
export type Page = { limit: number; offset: number };

/** The rows of the requested page; `defaultSize` is each call's documented size when none is sent. */
export const pageOf = (input: PageInput, defaultSize: number): Page => {
  const size = input.size ?? defaultSize;
  return { limit: size, offset: ((input.page ?? 1) - 1) * size };
};
