import { describe, expect, it } from 'vitest';
import { FALLBACK_CONFIG, parseRuntimeConfig } from '../env';

describe('runtime config', () => {
  it('falls back while the server placeholder is still in place', () => {
    expect(parseRuntimeConfig('__PROAM_CONFIG__')).toEqual(FALLBACK_CONFIG);
    expect(FALLBACK_CONFIG.companyName).toBe(
      '株式会社プロアム・コンサルティング',
    );
  });

  it('falls back on unparsable content', () => {
    expect(parseRuntimeConfig('{not json')).toEqual(FALLBACK_CONFIG);
    expect(parseRuntimeConfig('[1,2]')).toEqual(FALLBACK_CONFIG);
  });

  it('reads the values the server filled in', () => {
    expect(
      parseRuntimeConfig(
        '{"companyName":"株式会社テスト","stripePublishableKey":"pk_test_1","apiBase":"/api/"}',
      ),
    ).toEqual({
      companyName: '株式会社テスト',
      stripePublishableKey: 'pk_test_1',
      apiBase: '/api',
    });
    expect(
      parseRuntimeConfig(
        '{"companyName":"A","stripePublishableKey":null,"apiBase":"/api"}',
      ).stripePublishableKey,
    ).toBeNull();
  });
});
