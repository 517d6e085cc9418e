import { TERMS_VERSION, termsVersionDate } from '@proam/contract';
import { screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import AmateurMenuRoute from '@/app/routes/public/amateur-menu';
import ProMenuRoute from '@/app/routes/public/pro-menu';
import QaRoute from '@/app/routes/public/qa';
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
import { PAY_AT_COURSE } from '@/lib/payment-mode';

const effective = termsVersionDate(TERMS_VERSION);

/** Every phrase of `present` is on the page and none of `absent`. */
const expectPhrases = (
  present: readonly string[],
  absent: readonly string[] = [],
) => {
  const text = document.body.textContent ?? '';
  for (const phrase of present) expect(text).toContain(phrase);
  for (const phrase of absent) expect(text).not.toContain(phrase);
};

/** Each row of the page's table, found by its header, holds its value. */
const expectRows = (rows: readonly (readonly [string, string])[]) => {
  const table = screen.getByRole('table');
  for (const [label, value] of rows) {
    const row = within(table).getByRole('rowheader', {
      name: label,
    }).parentElement!;
    expect(row).toHaveTextContent(value);
  }
};

describe('legal pages', () => {
  it('reads the version as a Japanese date', () => {
    expect(termsVersionDate('2026-12-01')).toBe('2026年12月1日');
  });

  it('利用規約 states its 制定日, the commission, the cancellation rule and the court', () => {
    renderWithProviders(<TermsDocument />);
    expect(
      screen.getByRole('heading', { level: 1, name: '利用規約' }),
    ).toBeInTheDocument();
    expect(screen.getByText(effective)).toHaveAttribute(
      'datetime',
      TERMS_VERSION,
    );
    expectPhrases([
      'レッスン前日の23時59分（日本時間）',
      'レッスン当日以降は、予約をキャンセルすることはでき',
      'レッスン料の10%',
      '月末締め',
      '禁止事項',
      '利用停止',
      '東京地方裁判所',
      runtimeConfig.companyName,
    ]);
    const toc = screen.getByRole('navigation', { name: '目次' });
    expect(within(toc).getAllByRole('link').length).toBeGreaterThan(8);
  });

  it('プライバシーポリシー names its purposes, retention and the contact', () => {
    renderWithProviders(<PrivacyDocument />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'プライバシーポリシー' }),
    ).toBeInTheDocument();
    expect(screen.getByText(effective)).toBeInTheDocument();
    expectPhrases([
      '利用目的',
      '保存期間',
      '安全管理措置',
      '開示',
      runtimeConfig.companyAddress,
    ]);
    expect(
      screen.getByRole('link', { name: runtimeConfig.companyMail }),
    ).toHaveAttribute('href', `mailto:${runtimeConfig.companyMail}`);
  });

  it('特定商取引法に基づく表記 lists every field with the configured company values', () => {
    renderWithProviders(<TokushohoDocument />);
    expectRows([
      ['販売事業者', runtimeConfig.companyName],
      ['運営統括責任者', runtimeConfig.companyRepresentative],
      ['所在地', runtimeConfig.companyAddress],
      ['電話番号', runtimeConfig.companyPhone],
      ['メールアドレス', runtimeConfig.companyMail],
      ['販売価格', 'レッスン料'],
      ['商品代金以外の必要料金', 'プレー費'],
      ['支払方法', 'お支払'],
      ['支払時期', '予約'],
      ['役務の提供時期', 'ラウンドレッスンの日時'],
      ['キャンセル・返金', '23時59分'],
    ]);
    expect(screen.getByText(effective)).toBeInTheDocument();
    expect(
      within(
        screen.getByRole('navigation', { name: '関連する規約' }),
      ).getAllByRole('link'),
    ).toHaveLength(2);
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

type PageCopy = {
  page: string;
  ui: ReactElement;
  present: readonly string[];
  absent: readonly string[];
  rows?: readonly (readonly [string, string])[];
};

/** 利用規約 第5条 as the Q&A and the amateur menu state it, in both modes. */
const CANCEL_RULE = [
  'レッスン前日の23時59分（日本時間）まで',
  'レッスン当日以降はキャンセルできません',
] as const;
/** What they said before: a rule left to each lesson, which the terms do not allow. */
const NOT_THE_RULE = ['レッスンごとに異なる', '各レッスンの案内'] as const;
/** The pros pay only the commission (API.md, Payments): no monthly fee is billed. */
const PRO_FEES = [
  ['初期登録費・月額基本料', '0円'],
  ['成約手数料', 'レッスン料の10%'],
] as const;
const NO_PRO_CHARGE = ['3,300円', '登録初月'] as const;

/**
 * What each page that speaks of fees says in one payment mode: what online
 * payment alone makes true (card, Stripe, the system fee, refunds) shows only
 * with a publishable key; without one, the fee is paid at the course.
 */
const MODES: {
  mode: string;
  key: string | null;
  pages: readonly PageCopy[];
}[] = [
  {
    mode: 'without a publishable key (the default): paid at the course',
    key: null,
    pages: [
      {
        page: '利用規約',
        ui: <TermsDocument />,
        present: ['現地払い', 'システム利用料はかかりません'],
        absent: ['クレジットカード', 'Stripe', '550円', '返金します'],
      },
      {
        page: 'プライバシーポリシー',
        ui: <PrivacyDocument />,
        present: ['成約手数料の精算'],
        absent: ['クレジットカード', 'Stripe'],
      },
      {
        page: '特定商取引法に基づく表記',
        ui: <TokushohoDocument />,
        present: [],
        absent: ['クレジットカード', 'Stripe', '550円'],
        rows: [
          ['販売価格', 'システム利用料：かかりません'],
          ['支払方法', '現地払い'],
          ['支払時期', 'レッスン当日'],
          ['キャンセル・返金', '返金の手続きはありません'],
        ],
      },
      {
        page: 'よくある質問',
        ui: <QaRoute />,
        present: [
          PAY_AT_COURSE,
          'システム利用料は無料',
          ...CANCEL_RULE,
          'プロがレッスンを中止した場合、料金はかかりません',
        ],
        absent: ['クレジットカード', '550円', 'お振り込み', ...NOT_THE_RULE],
      },
      {
        page: 'アマチュア会員メニュー',
        ui: <AmateurMenuRoute />,
        present: [
          PAY_AT_COURSE,
          ...CANCEL_RULE,
          'プロがレッスンを中止した場合、料金はかかりません',
        ],
        absent: ['550円', '返金', ...NOT_THE_RULE],
        rows: [['システム利用料', '0円']],
      },
      {
        page: 'プロ会員メニュー',
        ui: <ProMenuRoute />,
        present: ['参加者から直接お受け取りください（現地払い）'],
        absent: ['お振り込み', ...NO_PRO_CHARGE],
        rows: PRO_FEES,
      },
    ],
  },
  {
    mode: 'with a publishable key: paid online',
    key: 'pk_test_legal',
    pages: [
      {
        page: '利用規約',
        ui: <TermsDocument />,
        present: [
          '550円（税込）',
          'クレジットカード（決済代行：Stripe, Inc.）',
          '全額返金',
          '翌月末',
        ],
        absent: ['現地払い'],
      },
      {
        page: 'プライバシーポリシー',
        ui: <PrivacyDocument />,
        present: ['Stripe, Inc.', 'クレジットカード番号'],
        absent: [],
      },
      {
        page: '特定商取引法に基づく表記',
        ui: <TokushohoDocument />,
        present: [],
        absent: ['現地払い'],
        rows: [
          ['販売価格', 'システム利用料：1予約につき550円（税込）'],
          ['支払方法', 'クレジットカード（決済代行：Stripe, Inc.）'],
          ['支払時期', '予約のお手続き時'],
          ['キャンセル・返金', 'お支払いに利用したクレジットカードへ'],
        ],
      },
      {
        page: 'よくある質問',
        ui: <QaRoute />,
        present: [
          '550円（税込）のシステム利用料',
          'クレジットカード',
          ...CANCEL_RULE,
          'お支払い済みのレッスン料とシステム利用料は全額返金します',
          'プロがレッスンを中止した場合は、お支払い済みの料金を全額返金します',
        ],
        absent: ['現地払い', ...NOT_THE_RULE],
      },
      {
        page: 'アマチュア会員メニュー',
        ui: <AmateurMenuRoute />,
        present: [
          ...CANCEL_RULE,
          'プロがレッスンを中止した場合は、お支払い済みの料金を全額返金します',
        ],
        absent: ['現地払い', ...NOT_THE_RULE],
        rows: [['システム利用料', '1予約につき550円（税込）']],
      },
      {
        page: 'プロ会員メニュー',
        ui: <ProMenuRoute />,
        present: ['ご指定の口座へお振り込みします'],
        absent: ['現地払い', ...NO_PRO_CHARGE],
        rows: PRO_FEES,
      },
    ],
  },
];

describe.each(MODES)('fees $mode', ({ key, pages }) => {
  let saved: string | null;
  beforeEach(() => {
    saved = runtimeConfig.stripePublishableKey;
    runtimeConfig.stripePublishableKey = key;
  });
  afterEach(() => {
    runtimeConfig.stripePublishableKey = saved;
  });

  it.each(pages)('$page', ({ ui, present, absent, rows }) => {
    renderWithProviders(ui);
    expectPhrases(present, absent);
    if (rows) expectRows(rows);
  });
});
