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
  it('counts Unicode code points, as the API does', () => {
    expect(charCount('𠮷')).toBe(1);
    expect('𠮷'.length).toBe(2);
    expect(charCount('𠮷野家')).toBe(3);
    expect(charCount('😀')).toBe(1);
    // A skin tone is a code point of its own, as for the server.
    expect(charCount('👍🏽')).toBe(2);
    expect(charCount('ゴルフ')).toBe(3);
    expect(charCount('')).toBe(0);
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

  it('accepts 2000 characters of 𠮷 (4000 UTF-16 units) and refuses 2001', () => {
    expect(
      validateContactField('message', {
        ...values,
        message: '𠮷'.repeat(2000),
      }),
    ).toBeUndefined();
    expect(
      validateContactField('message', {
        ...values,
        message: '𠮷'.repeat(2001),
      }),
    ).toBe('お問い合わせ内容は2000文字以内で入力してください。');
  });
});
