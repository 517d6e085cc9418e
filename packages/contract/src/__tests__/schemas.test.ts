import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import {
  CompetitionReadInputSchema,
  ContactCreateInputSchema,
  ERRORS,
  NgEnvelopeSchema,
  NewsReadAllInputSchema,
} from '../index.js';

const ajv = new Ajv({
  strict: false,
  coerceTypes: false,
  removeAdditional: false,
});
(addFormatsModule as unknown as (a: Ajv) => Ajv)(ajv);
const ok = (schema: object, value: unknown) => ajv.validate(schema, value);

describe('contract schemas', () => {
  it('has the error table of docs/api.md', () => {
    const expected: [keyof typeof ERRORS, number][] = [
      ['ValidationError', 400],
      ['InvalidCode', 400],
      ['InvalidClient', 401],
      ['InvalidCredentials', 401],
      ['InvalidAccessToken', 401],
      ['InvalidRefreshToken', 401],
      ['Forbidden', 403],
      ['NotFound', 404],
      ['Conflict', 409],
      ['EmailTaken', 409],
      ['ScheduleFull', 409],
      ['PayloadTooLarge', 413],
      ['UnsupportedMediaType', 415],
      ['TooManyRequests', 429],
      ['InternalError', 500],
    ];
    for (const [code, http] of expected)
      assert.equal(ERRORS[code].http, http, code);
    assert.equal(
      ERRORS.InvalidRefreshToken.msg,
      '一定期間ご利用がなかったため、ログインの有効期限が切れました。再度ログインしてください。',
    );
  });

  it('accepts a valid NG envelope and rejects an unknown code', () => {
    assert.ok(
      ok(NgEnvelopeSchema, {
        status: 'NG',
        code: 'NotFound',
        reqId: 'x',
        msg: 'm',
      }),
    );
    assert.ok(
      !ok(NgEnvelopeSchema, {
        status: 'NG',
        code: 'Nope',
        reqId: 'x',
        msg: 'm',
      }),
    );
  });

  it('bounds contact input', () => {
    const base = {
      name: '山田',
      email: 'a@example.jp',
      category: 'その他',
      message: 'こんにちは',
    };
    assert.ok(ok(ContactCreateInputSchema, base));
    assert.ok(!ok(ContactCreateInputSchema, { ...base, extra: 1 }));
    assert.ok(!ok(ContactCreateInputSchema, { ...base, name: '  ' }));
    assert.ok(!ok(ContactCreateInputSchema, { ...base, name: 'a\nb' }));
    assert.ok(ok(ContactCreateInputSchema, { ...base, message: 'a\nb' }));
    assert.ok(
      !ok(ContactCreateInputSchema, { ...base, message: 'x'.repeat(2001) }),
    );
    assert.ok(!ok(ContactCreateInputSchema, { ...base, email: 'nope' }));
  });

  it('bounds paging and competition filters', () => {
    assert.ok(ok(NewsReadAllInputSchema, { page: 1, size: 50 }));
    assert.ok(!ok(NewsReadAllInputSchema, { size: 51 }));
    assert.ok(!ok(NewsReadAllInputSchema, { size: '5' }));
    assert.ok(
      ok(CompetitionReadInputSchema, { status: 'open', from: '2026-01-01' }),
    );
    assert.ok(!ok(CompetitionReadInputSchema, { status: 'draftx' }));
    assert.ok(!ok(CompetitionReadInputSchema, { from: '2026-02-30x' }));
  });
});
