import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  LabelValueTable,
  type LabelValueRow,
} from '@/components/label-value-table';
import { runtimeConfig } from '@/config/env';
import { LegalDocument } from './legal-document';
import { byPaymentMode } from '@/lib/payment-mode';
import { SYSTEM_FEE_LABEL } from '../legal-terms';

const rows = (): LabelValueRow[] => [
  { label: '販売事業者', value: runtimeConfig.companyName },
  { label: '運営統括責任者', value: runtimeConfig.companyRepresentative },
  { label: '所在地', value: runtimeConfig.companyAddress },
  {
    label: '電話番号',
    value: (
      <>
        <a href={`tel:${runtimeConfig.companyPhone.replace(/[^0-9+]/g, '')}`}>
          {runtimeConfig.companyPhone}
        </a>
        <br />
        <span className="legal__note">
          受付時間：平日10:00〜17:00（土日祝・年末年始を除く）。お問い合わせは、なるべくメールまたはお問い合わせフォームをご利用ください。
        </span>
      </>
    ),
  },
  {
    label: 'メールアドレス',
    value: (
      <a href={`mailto:${runtimeConfig.companyMail}`}>
        {runtimeConfig.companyMail}
      </a>
    ),
  },
  {
    label: '販売価格',
    value: (
      <>
        レッスン料：各ラウンドレッスンのページに表示された金額（税込。各プロ会員が設定します）
        <br />
        {byPaymentMode({
          online: `システム利用料：1予約につき${SYSTEM_FEE_LABEL}`,
          atCourse: 'システム利用料：かかりません',
        })}
      </>
    ),
  },
  {
    label: '商品代金以外の必要料金',
    value: (
      <>
        ゴルフ場のプレー費（グリーンフィー・カート代等）、ゴルフ場までの交通費、本サービスの利用に必要なインターネット接続料金・通信料金は、お客さまのご負担となります。
      </>
    ),
  },
  {
    label: '支払方法',
    value: byPaymentMode<ReactNode>({
      online: 'クレジットカード（決済代行：Stripe, Inc.）',
      atCourse: (
        <>
          現地払い：レッスン料は、レッスン当日にゴルフ場で担当のプロ会員へ直接お支払いください。
          <br />
          本サービス上での料金のお支払い（オンライン決済）は行っていません。
        </>
      ),
    }),
  },
  {
    label: '支払時期',
    value: byPaymentMode({
      online:
        '予約のお手続き時（お支払いの完了をもって予約が確定します）。カードの引落し日は、各カード会社の規定によります。',
      atCourse:
        'レッスン当日（現地払い）。予約は、お申し込みの時点で確定します。',
    }),
  },
  {
    label: '役務の提供時期',
    value:
      '予約したラウンドレッスンの日時・ゴルフ場にて、担当のプロ会員が提供します。',
  },
  {
    label: 'キャンセル・返金',
    value: (
      <>
        {byPaymentMode({
          online: (
            <>
              レッスン前日の23時59分（日本時間）までは、本サービス上で無料でキャンセルでき、お支払い済みの料金（レッスン料・システム利用料）は全額返金します。
              <br />
              レッスン当日以降はキャンセルできず、返金もいたしかねます（欠席・遅刻の場合を含みます）。
              <br />
              プロ会員の都合や天候によりレッスンが中止となった場合は、全額返金します。
              <br />
              返金は、お支払いに利用したクレジットカードへ行います。
            </>
          ),
          atCourse: (
            <>
              レッスン前日の23時59分（日本時間）までは、本サービス上で無料でキャンセルできます。料金はレッスン当日のお支払いのため、返金の手続きはありません。
              <br />
              レッスン当日以降はキャンセルできません（欠席・遅刻の場合を含みます）。
              <br />
              プロ会員の都合や天候によりレッスンが中止となった場合、料金は発生しません。
            </>
          ),
        })}
        <br />
        詳しくは<Link to="/terms">利用規約</Link>第5条をご覧ください。
      </>
    ),
  },
  {
    label: '動作環境',
    value:
      '最新版の Google Chrome、Safari、Microsoft Edge、Firefox（パソコン・スマートフォン・タブレット）',
  },
];

/** 特定商取引法に基づく表記: the operator's details come from the server's configuration. */
export const TokushohoDocument = () => {
  const title = '特定商取引法に基づく表記';
  return (
    <LegalDocument
      title={title}
      titleRight="LEGAL NOTICE"
      description="特定商取引に関する法律第11条に基づき、次のとおり表示します。"
    >
      <LabelValueTable
        className="data-table legal__table"
        caption={title}
        rows={rows()}
      />
    </LegalDocument>
  );
};
