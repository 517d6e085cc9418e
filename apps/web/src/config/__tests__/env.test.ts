import { describe, expect, it } from 'vitest';
import { FALLBACK_CONFIG, parseRuntimeConfig, paymentsEnabled } from '../env';

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
      companyAddress: FALLBACK_CONFIG.companyAddress,
      companyPhone: FALLBACK_CONFIG.companyPhone,
      companyRepresentative: FALLBACK_CONFIG.companyRepresentative,
      companyMail: FALLBACK_CONFIG.companyMail,
      stripePublishableKey: 'pk_test_1',
      apiBase: '/api',
      apiClient: 'web:proam-web-dev',
    });
    expect(
      parseRuntimeConfig(
        '{"companyName":"A","stripePublishableKey":null,"apiBase":"/api"}',
      ).stripePublishableKey,
    ).toBeNull();
  });

  it('reads the client credentials, falling back to the development client', () => {
    expect(
      parseRuntimeConfig('{"apiClient":"web:prod-code-1"}').apiClient,
    ).toBe('web:prod-code-1');
    expect(parseRuntimeConfig('{"apiClient":null}').apiClient).toBe(
      'web:proam-web-dev',
    );
    expect(parseRuntimeConfig('{"apiClient":"no-colon"}').apiClient).toBe(
      'web:proam-web-dev',
    );
  });

  it('turns online payment on only with a publishable key (現地払い otherwise)', () => {
    expect(paymentsEnabled(FALLBACK_CONFIG)).toBe(false);
    expect(
      paymentsEnabled(parseRuntimeConfig('{"stripePublishableKey":""}')),
    ).toBe(false);
    expect(
      paymentsEnabled(
        parseRuntimeConfig('{"stripePublishableKey":"pk_test_1"}'),
      ),
    ).toBe(true);
  });
});
