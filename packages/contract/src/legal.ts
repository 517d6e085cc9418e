import { Type, type Static } from 'typebox';
import { InstantSchema, InputObject } from './common.js';

/**
 * The version (制定日, `YYYY-MM-DD`) of the 利用規約 and the プライバシーポリシー
 * in force. The one place it is written: the legal pages show it, the API
 * stores it when a member agrees, and a member whose stored version differs
 * is asked again at the next login. Change it together with the pages' text.
 */
export const TERMS_VERSION = '2026-12-01';

/** `2026-12-01` → `2026年12月1日`: how a version (制定日) reads on the pages. */
export const termsVersionDate = (version: string): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(version);
  return m ? `${m[1]}年${Number(m[2])}月${Number(m[3])}日` : version;
};

/** A terms version as sent by a client: the date form only, checked against TERMS_VERSION by the API. */
export const TermsVersionSchema = Type.String({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  maxLength: 10,
});

export const TermsAcceptInputSchema = InputObject({
  version: TermsVersionSchema,
});
export type TermsAcceptInput = Static<typeof TermsAcceptInputSchema>;

/** What the member agreed to, and when. */
export const TermsAcceptanceSchema = Type.Object({
  version: Type.String(),
  acceptedAt: InstantSchema,
});
export type TermsAcceptance = Static<typeof TermsAcceptanceSchema>;
