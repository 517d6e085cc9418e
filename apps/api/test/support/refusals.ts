import assert from 'node:assert/strict';

/** One call that must be refused: who calls, where, with what body, and the NG code expected. */
export type Refusal = [
  who: string,
  apiPath: string,
  body: unknown,
  code: string,
];

type Post = (
  who: string,
  apiPath: string,
  body: unknown,
) => Promise<{ json: Record<string, unknown> }>;

/**
 * Makes each call in turn, in order, as that member and checks the code of
 * the NG envelope: one table instead of an assertion block per refusal.
 */
export async function assertRefusals(
  post: Post,
  refusals: readonly Refusal[],
): Promise<void> {
  for (const [who, apiPath, body, code] of refusals) {
    const r = await post(who, apiPath, body);
    assert.equal(
      r.json.code,
      code,
      `${who} ${apiPath} ${JSON.stringify(body)}`,
    );
  }
}
