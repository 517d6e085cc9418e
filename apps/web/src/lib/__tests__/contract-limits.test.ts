import {
  NewsCreateInputSchema,
  UserUpdateInputSchema,
  MessageSendInputSchema,
} from '@proam/contract';
import { describe, expect, it } from 'vitest';
import {
  charCount,
  maxLengthOf,
  minLengthOf,
  rangeOf,
  textLength,
} from '../contract-limits';
import { validateContactField } from '@/features/contact/contact-validation';

describe('charCount', () => {
  it.each([
    ['𠮷', 1],
    ['𠮷野家', 3],
    ['😀', 1],
    // A skin tone is a code point of its own, as for the server.
    ['👍🏽', 2],
    ['ゴルフ', 3],
    ['', 0],
  ])('counts Unicode code points, as the API does: %j is %d', (text, n) => {
    expect(charCount(text)).toBe(n);
  });

  it('is not the UTF-16 length', () => {
    expect('𠮷'.length).toBe(2);
  });

  it('measures free text after the trim the API applies', () => {
    expect(textLength('  𠮷😀 \n')).toBe(2);
  });
});

describe('contract bounds', () => {
  it('reads a string limit from the schema', () => {
    expect(maxLengthOf(UserUpdateInputSchema.properties.userName)).toBe(40);
    expect(maxLengthOf(MessageSendInputSchema.properties.msg)).toBe(2000);
    expect(minLengthOf(UserUpdateInputSchema.properties.userName)).toBe(1);
  });

  it('reads through unions with null or an empty string', () => {
    expect(maxLengthOf(NewsCreateInputSchema.properties.imageUrl)).toBe(500);
    expect(
      rangeOf(UserUpdateInputSchema.properties.pro.properties.lessonFee),
    ).toEqual([0, 10_000_000]);
    expect(
      rangeOf(UserUpdateInputSchema.properties.amateur.properties.averageScore),
    ).toEqual([50, 200]);
  });

  it('refuses a schema without the bound asked for', () => {
    expect(() =>
      maxLengthOf(UserUpdateInputSchema.properties.id),
    ).not.toThrow();
    expect(() => rangeOf(UserUpdateInputSchema.properties.userName)).toThrow(
      /minimum/,
    );
  });
});

describe('a validator counting like the server', () => {
  const values = {
    name: '山田',
    email: 'a@example.jp',
    phone: '',
    category: 'その他',
    message: '',
  };

  // 2000 characters of 𠮷 are 4000 UTF-16 units.
  it.each([
    [2000, undefined],
    [2001, 'お問い合わせ内容は2000文字以内で入力してください。'],
  ])('takes %d characters of 𠮷 as that many', (n, error) => {
    expect(
      validateContactField('message', {
        ...values,
        message: '𠮷'.repeat(n),
      }),
    ).toBe(error);
  });
});
