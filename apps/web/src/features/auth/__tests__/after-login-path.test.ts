import { describe, expect, it } from 'vitest';
import { afterLoginPath } from '../components/require-login';

describe('afterLoginPath', () => {
  it('returns to the member page the login interrupted, mail links included', () => {
    expect(afterLoginPath({ from: '/tabs/chat/abc' })).toBe('/tabs/chat/abc');
    expect(afterLoginPath({ from: '/payment/01HX' })).toBe('/payment/01HX');
    expect(afterLoginPath({ from: '/receipt/01HX' })).toBe('/receipt/01HX');
    expect(afterLoginPath({ from: '/sales?month=2026-11' })).toBe(
      '/sales?month=2026-11',
    );
  });

  it('sends anything else to the schedule tab', () => {
    for (const from of [
      '//evil.example/tabs',
      '/paymentx',
      '/admin',
      'https://evil.example/',
      42,
    ])
      expect(afterLoginPath({ from })).toBe('/tabs/schedule');
    expect(afterLoginPath(null)).toBe('/tabs/schedule');
  });
});
