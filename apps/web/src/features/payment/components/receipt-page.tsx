import { taxIncludedIn, type Payment } from '@proam/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { NoticeCard } from '@/components/notice-card';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { runtimeConfig } from '@/config/env';
import { selectAuthUser } from '@/features/auth/auth-slice';
import { useDocumentTitle } from '@/hooks/use-document-title';
import {
  formatDate,
  formatInstantDate,
  formatYenSuffix,
  groupDigits,
  todayInJapan,
} from '@/lib/format';
import { useAppSelector } from '@/lib/store-hooks';
import { paymentTotal, useGetPaymentQuery } from '../payment-records-api';

/** The longest 宛名 kept: a company name with a department fits. */
const ADDRESSEE_MAX = 60;

/** Where this member's last 宛名 is kept, so the next receipt starts with it. */
export const addresseeKey = (userId: string) => `receipt_addressee:${userId}`;

const readAddressee = (userId: string): string => {
  try {
    return localStorage.getItem(addresseeKey(userId)) ?? '';
  } catch {
    return '';
  }
};

const writeAddressee = (userId: string, name: string) => {
  try {
    if (name.trim() === '') localStorage.removeItem(addresseeKey(userId));
    else localStorage.setItem(addresseeKey(userId), name);
  } catch {
    // Without storage the name lasts until the page closes.
  }
};

/** 12550 → `￥12,550-`, as Japanese receipts write an amount (nothing can be added after it). */
/** The way out of every notice of this page: 支払い履歴 is on the profile. */
const BackToHistory = () => (
  <Link to="/tabs/profile" className="button button--outline">
    支払い履歴へ戻る
  </Link>
);

const receiptAmount = (yen: number) => `￥${groupDigits(yen)}-`;

type ReceiptProps = { payment: Payment; receiptNo: string; addressee: string };

/** The receipt itself: the only part of the page that prints. */
const Receipt = ({ payment: p, receiptNo, addressee }: ReceiptProps) => {
  const total = paymentTotal(p);
  return (
    <article className="receipt" aria-labelledby="receipt-title">
      <header className="receipt__head">
        <h2 id="receipt-title" className="receipt__title">
          領収書
        </h2>
        <dl className="receipt__meta">
          <div>
            <dt>No.</dt>
            <dd>{receiptNo}</dd>
          </div>
          <div>
            <dt>発行日</dt>
            <dd>{formatDate(todayInJapan())}</dd>
          </div>
        </dl>
      </header>
      <p className="receipt__addressee">
        <span className="receipt__addressee-name">{addressee.trim()}</span>
        <span className="receipt__honorific">様</span>
      </p>
      <p className="receipt__amount">
        <span className="visually-hidden">金額 </span>
        {receiptAmount(total)}
        <span className="receipt__tax-note">（税込）</span>
      </p>
      <p className="receipt__purpose">但し ラウンドレッスン参加費として</p>
      <p className="receipt__received">上記正に領収いたしました。</p>
      <table className="receipt__breakdown">
        <caption>内訳</caption>
        <tbody>
          <tr>
            <th scope="row">レッスン料</th>
            <td>{formatYenSuffix(p.amount)}</td>
          </tr>
          <tr>
            <th scope="row">システム利用料</th>
            <td>{formatYenSuffix(p.serviceFee)}</td>
          </tr>
          <tr className="receipt__total">
            <th scope="row">合計（税込）</th>
            <td>{formatYenSuffix(total)}</td>
          </tr>
          <tr>
            <th scope="row">内消費税等（10%）</th>
            <td>{formatYenSuffix(taxIncludedIn(total))}</td>
          </tr>
        </tbody>
      </table>
      <dl className="receipt__details">
        <div>
          <dt>お支払い日</dt>
          <dd>{p.paidAt ? formatInstantDate(p.paidAt) : '—'}</dd>
        </div>
        <div>
          <dt>レッスン</dt>
          <dd>
            {formatDate(p.date)} {p.startTime}〜 {p.place}（{p.proName}プロ）
          </dd>
        </div>
        {p.status === 'refunded' && (
          <div className="receipt__refunded">
            <dt>備考</dt>
            <dd>
              このお支払いは
              {p.refundedAt ? `${formatInstantDate(p.refundedAt)}に` : ''}
              返金済みです。
            </dd>
          </div>
        )}
      </dl>
      <footer className="receipt__issuer">
        <p className="receipt__company">{runtimeConfig.companyName}</p>
        <p>{runtimeConfig.companyAddress}</p>
        <p>TEL {runtimeConfig.companyPhone}</p>
      </footer>
    </article>
  );
};

/** The 宛名 field and 印刷する: on screen only, never printed. */
const ReceiptTools = ({
  addressee,
  onAddressee,
}: {
  addressee: string;
  onAddressee: (name: string) => void;
}) => (
  <div className="receipt-tools">
    <div className="receipt-tools__field form-field">
      <label htmlFor="receipt-addressee" className="form-field__label">
        宛名
      </label>
      <div className="receipt-tools__input">
        <input
          id="receipt-addressee"
          type="text"
          autoComplete="organization"
          maxLength={ADDRESSEE_MAX}
          value={addressee}
          aria-describedby="receipt-addressee-hint"
          onChange={(e) => onAddressee(e.target.value)}
        />
        <span aria-hidden="true">様</span>
      </div>
      <p id="receipt-addressee-hint" className="form-field__hint">
        会社名やお名前を入力してください（「様」は自動で付きます）。この端末に保存され、次の領収書にも使われます。
      </p>
    </div>
    <div className="button-row">
      <button
        type="button"
        className="button button--primary"
        onClick={() => window.print()}
      >
        印刷する
      </button>
      <Link to="/tabs/profile" className="button button--outline">
        支払い履歴へ戻る
      </Link>
    </div>
    <p className="muted receipt-tools__note">
      印刷画面で「PDFに保存」を選ぶと、PDFとして保存できます（A4・A5どちらでも印刷できます）。
    </p>
  </div>
);

const ReceiptBody = ({
  payment,
  userId,
}: {
  payment: Payment;
  userId: string;
}) => {
  const [addressee, setAddressee] = useState(() => readAddressee(userId));
  const update = (name: string) => {
    setAddressee(name);
    writeAddressee(userId, name);
  };
  if (!payment.receiptNo)
    return (
      <NoticeCard
        lead="このお支払いの領収書はまだ発行できません"
        text="領収書はお支払いが完了すると発行されます。"
        actions={<BackToHistory />}
      />
    );
  return (
    <>
      <ReceiptTools addressee={addressee} onAddressee={update} />
      <Receipt
        payment={payment}
        receiptNo={payment.receiptNo}
        addressee={addressee}
      />
    </>
  );
};

/**
 * `#/receipt/:reservationId`: the printable 領収書 of one of the member's
 * payments. Printing (or the browser's 「PDFに保存」) is the way to keep it:
 * no PDF is made here.
 */
export const ReceiptPage = () => {
  useDocumentTitle('領収書');
  const { reservationId = '' } = useParams();
  const me = useAppSelector(selectAuthUser);
  const query = useGetPaymentQuery(reservationId, {
    skip: reservationId === '',
    refetchOnMountOrArgChange: true,
  });
  return (
    <>
      <PageHeader section="会員メニュー" title="領収書" titleRight="RECEIPT" />
      <div className="container section receipt-page">
        <QueryState
          query={query}
          loading="領収書を読み込み中"
          error="領収書を読み込めませんでした。"
        >
          {() =>
            query.data && me ? (
              <ReceiptBody
                key={query.data.reservationId}
                payment={query.data}
                userId={me.id}
              />
            ) : (
              <NoticeCard
                lead="領収書が見つかりません"
                text="支払い履歴から、領収書を表示したいお支払いを選んでください。"
                actions={<BackToHistory />}
              />
            )
          }
        </QueryState>
      </div>
    </>
  );
};
