import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chatDigestMail,
  japaneseDate,
  lessonNoticeMail,
  paymentReceivedMail,
  promotedHoldMail,
  promotedHoldProMail,
  refundedMail,
  yen,
  type LessonNoticeKind,
} from '../../src/mail/templates.js';

const lesson = {
  date: '2026-11-29',
  startTime: '09:00',
  endTime: '14:00',
  place: '相模原ゴルフクラブ',
  proName: '山田 健一',
  fee: 18000,
};
const KINDS: LessonNoticeKind[] = [
  'reserved',
  'cancelled',
  'calledOff',
  'promoted',
  'reminder',
  'reviewInvite',
  'changed',
];
/** What API.md's table says each subject contains. */
const SUBJECT_WORD: Record<LessonNoticeKind, RegExp> = {
  reserved: /予約/,
  cancelled: /キャンセル/,
  calledOff: /中止/,
  promoted: /キャンセル待ち/,
  reminder: /明日/,
  reviewInvite: /口コミ/,
  changed: /変更/,
};
/** A lesson mail to the amateur who booked; each test adds its kind. */
const toAmateur = {
  role: 'amateur',
  to: 'x@example.jp',
  recipientName: '佐藤 花子',
  amateurName: '佐藤 花子',
  lesson,
  link: 'https://proam.example.jp/#/tabs/schedule',
} as const;

describe('lesson mails', () => {
  it('names the date with its weekday in Japanese', () => {
    assert.equal(japaneseDate('2026-11-29'), '2026年11月29日(日)');
    assert.equal(japaneseDate('2027-01-01'), '2027年1月1日(金)');
  });

  for (const kind of KINDS)
    for (const role of ['amateur', 'pro'] as const)
      it(`${kind} to the ${role}: subject, lesson, link`, (t) => {
        const mail = lessonNoticeMail({
          kind,
          role,
          to: 'x@example.jp',
          recipientName: role === 'pro' ? '山田 健一' : '佐藤 花子',
          amateurName: '佐藤 花子',
          lesson,
          link: 'https://proam.example.jp/#/tabs/schedule',
          participants: ['佐藤 花子', '鈴木 一郎'],
          ...(kind === 'calledOff' ? { reason: '雨天のため' } : {}),
          ...(kind === 'changed'
            ? { changes: ['ゴルフ場：府中CC → 多摩CC'] }
            : {}),
        });
        // Printed so a person reads every mail the product sends (npm test output).
        t.diagnostic(`${mail.subject}\n${mail.text}`);
        assert.match(mail.subject, /^【ProAm Connect】/);
        assert.match(mail.subject, SUBJECT_WORD[kind]);
        assert.match(mail.text, /日時：2026年11月29日\(日\) 09:00〜14:00/);
        assert.match(mail.text, /場所：相模原ゴルフクラブ/);
        assert.match(mail.text, /プロ：山田 健一/);
        assert.match(
          mail.text,
          /https:\/\/proam\.example\.jp\/#\/tabs\/schedule/,
        );
        if (kind === 'calledOff')
          assert.match(mail.text, /中止の理由：雨天のため/);
        if (kind === 'changed')
          assert.match(mail.text, /変更点：\nゴルフ場：府中CC → 多摩CC/);
      });

  it('a booking made on the lesson day says it can no longer be cancelled', () => {
    for (const kind of ['reserved', 'promoted'] as const) {
      const mail = lessonNoticeMail({
        kind,
        role: 'amateur',
        to: 'x@example.jp',
        recipientName: '佐藤 花子',
        amateurName: '佐藤 花子',
        lesson,
        link: 'https://proam.example.jp/#/tabs/schedule',
        cancelClosed: true,
      });
      assert.match(
        mail.text,
        /キャンセル期限：レッスン当日のため、キャンセルはできません/,
      );
      assert.doesNotMatch(mail.text, /前日/);
    }
  });

  it('the unread-chat digest', (t) => {
    const mail = chatDigestMail({
      to: 'x@example.jp',
      recipientName: '佐藤 花子',
      lesson,
      unread: 3,
      link: 'https://proam.example.jp/#/tabs/chat/01J',
    });
    t.diagnostic(`${mail.subject}\n${mail.text}`);
    assert.match(mail.subject, /^【ProAm Connect】.*チャット/);
    assert.match(mail.text, /未読のメッセージが3件/);
    assert.match(mail.text, /6時間に1回まで/);
  });

  it('says a fee paid online is paid, not due at the course', () => {
    const mail = lessonNoticeMail({
      ...toAmateur,
      kind: 'reserved',
      paidOnline: true,
    });
    assert.match(mail.text, /レッスン料：18,000円（お支払い済み）/);
    assert.doesNotMatch(mail.text, /当日ゴルフ場でお支払いください/);
  });

  it('a lesson called off: a refund for those who paid online, nothing to pay for the others', () => {
    const base = {
      ...toAmateur,
      kind: 'calledOff' as const,
      reason: '雨天のため',
    };
    const paid = lessonNoticeMail({ ...base, paidOnline: true });
    assert.match(paid.text, /全額返金いたします/);
    assert.doesNotMatch(paid.text, /お支払いは不要です/);
    const atCourse = lessonNoticeMail(base);
    assert.match(atCourse.text, /レッスン料のお支払いは不要です/);
    assert.doesNotMatch(atCourse.text, /返金/);
  });
});

describe('payment mails', () => {
  const payment = { amount: 23000, serviceFee: 550 };

  it('formats yen with thousands separators', () => {
    assert.equal(yen(23550), '23,550円');
    assert.equal(yen(550), '550円');
    assert.equal(yen(0), '0円');
  });

  it('payment received: subject, breakdown, receipt link', (t) => {
    const mail = paymentReceivedMail({
      to: 'x@example.jp',
      recipientName: '佐藤 花子',
      lesson,
      payment,
      receiptNo: 'R20261128-7F3K9QXZ',
      receiptLink: 'https://proam.example.jp/#/receipt/01JPAY',
    });
    t.diagnostic(`${mail.subject}\n${mail.text}`);
    assert.equal(mail.to, 'x@example.jp');
    assert.match(mail.subject, /^【ProAm Connect】お支払いを受け付けました/);
    assert.match(mail.subject, /2026年11月29日\(日\) 09:00〜/);
    assert.match(mail.text, /^佐藤 花子 様/);
    assert.match(mail.text, /日時：2026年11月29日\(日\) 09:00〜14:00/);
    assert.match(mail.text, /場所：相模原ゴルフクラブ/);
    assert.match(mail.text, /プロ：山田 健一/);
    assert.match(mail.text, /レッスン料：23,000円\n/);
    assert.match(mail.text, /システム利用料：550円\n/);
    assert.match(mail.text, /合計（税込）：23,550円\n/);
    assert.match(mail.text, /領収書番号：R20261128-7F3K9QXZ/);
    assert.match(mail.text, /https:\/\/proam\.example\.jp\/#\/receipt\/01JPAY/);
    assert.match(mail.text, /ProAm Connect 運営事務局/);
  });

  it('refunded: subject, amount, reason, the card company delay', (t) => {
    for (const [reason, said] of [
      ['cancelled', 'ご予約のキャンセル'],
      ['calledOff', 'ラウンドレッスンの中止'],
      ['late', 'お取り置き期限が過ぎ'],
    ] as const) {
      const mail = refundedMail({
        to: 'x@example.jp',
        recipientName: '佐藤 花子',
        lesson,
        payment,
        reason,
        link: 'https://proam.example.jp/#/tabs/profile',
      });
      if (reason === 'cancelled') t.diagnostic(`${mail.subject}\n${mail.text}`);
      assert.match(mail.subject, /^【ProAm Connect】返金のお知らせ/);
      assert.match(mail.text, /返金額：23,550円/);
      assert.match(mail.text, new RegExp(`返金の理由：.*${said}`));
      assert.match(
        mail.text,
        /カード会社により反映まで数日かかる場合があります/,
      );
      assert.match(mail.text, /日時：2026年11月29日\(日\) 09:00〜14:00/);
    }
  });

  it('promoted with a hold: still a キャンセル待ち subject, the deadline and the payment link', (t) => {
    const mail = promotedHoldMail({
      to: 'x@example.jp',
      recipientName: '佐藤 花子',
      lesson,
      holdUntil: '10:15',
      link: 'https://proam.example.jp/#/payment/01JLESSON',
    });
    t.diagnostic(`${mail.subject}\n${mail.text}`);
    assert.match(mail.subject, /^【ProAm Connect】.*キャンセル待ち/);
    assert.doesNotMatch(mail.subject, /確定/);
    assert.match(mail.text, /お支払い期限：10:15/);
    assert.match(mail.text, /合計（税込）：18,550円/);
    assert.match(
      mail.text,
      /https:\/\/proam\.example\.jp\/#\/payment\/01JLESSON/,
    );
  });

  it('promoted with a hold, to the pro: who was offered the place and until when, nothing confirmed yet', (t) => {
    const mail = promotedHoldProMail({
      to: 'pro@example.jp',
      recipientName: '佐藤 健一',
      lesson,
      amateurNames: ['山田 太郎'],
      holdUntil: '10:15',
      link: 'https://proam.example.jp/#/tabs/schedule',
    });
    t.diagnostic(`${mail.subject}\n${mail.text}`);
    assert.match(mail.subject, /^【ProAm Connect】.*キャンセル待ち/);
    assert.doesNotMatch(mail.subject, /確定/);
    assert.match(mail.text, /キャンセル待ちの 山田 太郎 様にご案内しました/);
    assert.match(mail.text, /10:15までにお支払いが済むと予約が確定/);
    assert.match(mail.text, /https:\/\/proam\.example\.jp\/#\/tabs\/schedule/);
  });
});
