import { TERMS_VERSION, termsVersionDate } from '@proam/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SiteFooter } from '@/components/site-footer';
import {
  FALLBACK_CONFIG,
  parseRuntimeConfig,
  runtimeConfig,
} from '@/config/env';
import { renderWithProviders } from '@/testing/render';
import { PrivacyDocument } from '../components/privacy-document';
import { TermsDocument } from '../components/terms-document';
import { TokushohoDocument } from '../components/tokushoho-document';

const effective = termsVersionDate(TERMS_VERSION);

describe('legal pages', () => {
  it('reads the version as a Japanese date', () => {
    expect(termsVersionDate('2026-12-01')).toBe('2026年12月1日');
  });

  it('利用規約 states its 制定日, the fees, the cancellation rule and the court', () => {
    renderWithProviders(<TermsDocument />);
    expect(
      screen.getByRole('heading', { level: 1, name: '利用規約' }),
    ).toBeInTheDocument();
    expect(screen.getByText(effective)).toHaveAttribute(
      'datetime',
      TERMS_VERSION,
    );
    const text = document.body.textContent ?? '';
    for (const phrase of [
      '550円（税込）',
      'レッスン前日の23時59分（日本時間）',
      'レッスン当日以降は、予約をキャンセルすることはできず',
      '全額返金',
      'レッスン料の10%',
      '月末締め',
      '翌月末',
      'Stripe',
      '現地払い',
      '禁止事項',
      '利用停止',
      '東京地方裁判所',
      runtimeConfig.companyName,
    ])
      expect(text).toContain(phrase);
    const toc = screen.getByRole('navigation', { name: '目次' });
    expect(within(toc).getAllByRole('link').length).toBeGreaterThan(8);
  });

  it('プライバシーポリシー names its purposes, Stripe, retention and the contact', () => {
    renderWithProviders(<PrivacyDocument />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'プライバシーポリシー' }),
    ).toBeInTheDocument();
    expect(screen.getByText(effective)).toBeInTheDocument();
    const text = document.body.textContent ?? '';
    for (const phrase of [
      '利用目的',
      'Stripe, Inc.',
      '保存期間',
      '安全管理措置',
      '開示',
      runtimeConfig.companyAddress,
    ])
      expect(text).toContain(phrase);
    expect(
      screen.getByRole('link', { name: runtimeConfig.companyMail }),
    ).toHaveAttribute('href', `mailto:${runtimeConfig.companyMail}`);
  });

  it('特定商取引法に基づく表記 lists every field with the configured company values', () => {
    renderWithProviders(<TokushohoDocument />);
    const table = screen.getByRole('table');
    for (const [label, value] of [
      ['販売事業者', runtimeConfig.companyName],
      ['運営統括責任者', runtimeConfig.companyRepresentative],
      ['所在地', runtimeConfig.companyAddress],
      ['電話番号', runtimeConfig.companyPhone],
      ['メールアドレス', runtimeConfig.companyMail],
      ['販売価格', '550円（税込）'],
      ['商品代金以外の必要料金', 'プレー費'],
      ['支払方法', 'クレジットカード'],
      ['支払時期', 'レッスン当日'],
      ['役務の提供時期', 'ラウンドレッスンの日時'],
      ['キャンセル・返金', '23時59分'],
    ]) {
      const row = within(table).getByRole('rowheader', {
        name: label,
      }).parentElement!;
      expect(row).toHaveTextContent(value!);
    }
    expect(screen.getByText(effective)).toBeInTheDocument();
  });

  it('the footer links the three pages', () => {
    renderWithProviders(<SiteFooter />);
    const nav = screen.getByRole('navigation', { name: '規約・法的表記' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['利用規約', '/terms'],
      ['プライバシーポリシー', '/privacy'],
      ['特定商取引法に基づく表記', '/tokushoho'],
    ]);
  });

  it('takes the company details from the run-time settings, with demo values otherwise', () => {
    const c = parseRuntimeConfig(
      JSON.stringify({
        companyName: '株式会社テスト',
        companyAddress: '大阪府大阪市北区1-1',
        companyPhone: '06-1234-5678',
        companyRepresentative: '佐藤 花子',
        companyMail: 'legal@example.com',
      }),
    );
    expect(c).toMatchObject({
      companyName: '株式会社テスト',
      companyAddress: '大阪府大阪市北区1-1',
      companyPhone: '06-1234-5678',
      companyRepresentative: '佐藤 花子',
      companyMail: 'legal@example.com',
    });
    expect(parseRuntimeConfig('{"companyPhone":""}').companyPhone).toBe(
      FALLBACK_CONFIG.companyPhone,
    );
  });
});
