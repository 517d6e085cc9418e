import { SERVICE_FEE } from '@proam/contract';
import type { Mail } from './mailer.js';

const SIGNATURE = [
  '',
  '──────────────────',
  'ProAm Connect 運営事務局',
  '※このメールは送信専用アドレスからお送りしています。',
  '※お心当たりのない場合は、このメールを破棄してください。',
].join('\n');

/** A mail carrying a one-time code: what it is for, where to type it, and for how long it holds. */
const codeMail = (
  to: string,
  code: string,
  m: { subject: string; opening: string; screen: string; validity: string },
): Mail => ({
  to,
  subject: `【ProAm Connect】${m.subject}`,
  text: [
    m.opening,
    '',
    `以下の認証コードを${m.screen}に入力してください。`,
    '',
    `認証コード: ${code}`,
    '',
    m.validity,
    SIGNATURE,
  ].join('\n'),
});

export const registrationCodeMail = (to: string, code: string): Mail =>
  codeMail(to, code, {
    subject: '会員登録の認証コード',
    opening: 'ProAm Connect へのご登録ありがとうございます。',
    screen: '登録画面',
    validity: 'このコードの有効期限は10分間です。',
  });

export const alreadyRegisteredMail = (to: string): Mail => ({
  to,
  subject: '【ProAm Connect】会員登録について',
  text: [
    'このメールアドレスは既に ProAm Connect に登録されています。',
    '',
    'ログイン画面からログインしてください。パスワードをお忘れの場合は「パスワードを忘れた方」から再設定できます。',
    SIGNATURE,
  ].join('\n'),
});

export const resetCodeMail = (to: string, code: string): Mail =>
  codeMail(to, code, {
    subject: 'パスワード再設定の認証コード',
    opening: 'パスワード再設定のお手続きを受け付けました。',
    screen: '再設定画面',
    validity:
      'このコードの有効期限は10分間です。お手続きをされていない場合、パスワードは変更されません。',
  });

export const passwordChangedMail = (to: string): Mail => ({
  to,
  subject: '【ProAm Connect】パスワードが変更されました',
  text: [
    'ProAm Connect のパスワードが変更されました。',
    '',
    'すべての端末からログアウトしましたので、新しいパスワードで再度ログインしてください。',
    'お心当たりがない場合は、お問い合わせフォームから至急ご連絡ください。',
    SIGNATURE,
  ].join('\n'),
});

export const contactMail = (
  to: string,
  id: string,
  input: {
    name: string;
    email: string;
    phone?: string | undefined;
    category: string;
    message: string;
  },
): Mail => ({
  to,
  replyTo: input.email,
  subject: `【お問い合わせ】${input.category}（${input.name} 様）`,
  text: [
    'Webサイトのお問い合わせフォームから新しいお問い合わせが届きました。',
    '',
    `受付番号: ${id}`,
    `お名前: ${input.name}`,
    `メールアドレス: ${input.email}`,
    `電話番号: ${input.phone || '（未入力）'}`,
    `お問い合わせ種別: ${input.category}`,
    '',
    'お問い合わせ内容:',
    input.message,
  ].join('\n'),
});

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];

/** 2026年11月29日(日): a lesson's date as members read it. */
export function japaneseDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
  return `${y}年${m}月${d}日(${weekday})`;
}

/** 23,550円: yen as members read it. */
export const yen = (amount: number): string =>
  `${amount.toLocaleString('ja-JP')}円`;

/** What every lesson mail says about the lesson. */
export type LessonFacts = {
  date: string;
  startTime: string;
  endTime: string;
  place: string;
  proName: string;
  fee: number;
};

export type LessonNoticeKind =
  | 'reserved'
  | 'cancelled'
  | 'calledOff'
  | 'promoted'
  | 'reminder'
  | 'reviewInvite'
  | 'changed';

/** Who a lesson mail goes to: the amateur concerned, or the lesson's pro. */
export type NoticeRole = 'amateur' | 'pro';

const lessonLines = (l: LessonFacts) => [
  `日時：${japaneseDate(l.date)} ${l.startTime}〜${l.endTime}`,
  `場所：${l.place}`,
  `プロ：${l.proName}`,
];

const SUBJECTS: Record<LessonNoticeKind, Record<NoticeRole, string>> = {
  reserved: {
    amateur: 'ラウンドレッスンのご予約が確定しました',
    pro: 'ラウンドレッスンに予約が入りました',
  },
  cancelled: {
    amateur: 'ご予約のキャンセルを受け付けました',
    pro: 'ラウンドレッスンの予約がキャンセルされました',
  },
  calledOff: {
    amateur: 'ラウンドレッスン中止のお知らせ',
    pro: 'ラウンドレッスンを中止しました',
  },
  promoted: {
    amateur: 'キャンセル待ちのレッスンのご予約が確定しました',
    pro: 'キャンセル待ちの方の予約が確定しました',
  },
  reminder: {
    amateur: '明日はラウンドレッスンです',
    pro: '明日はラウンドレッスンです',
  },
  // Only to the participants: the pro made the change.
  changed: {
    amateur: 'ご予約のラウンドレッスンの内容が変更されました',
    pro: 'ラウンドレッスンの内容を変更しました',
  },
  // Only to the participants: the pro is the one reviewed.
  reviewInvite: {
    amateur: 'レッスンはいかがでしたか？口コミをお寄せください',
    pro: 'レッスンはいかがでしたか？口コミをお寄せください',
  },
};

function leadOf(
  kind: LessonNoticeKind,
  role: NoticeRole,
  amateurName: string,
  paidOnline = false,
  cancelClosed = false,
): string[] {
  const who = `${amateurName} 様`;
  switch (kind) {
    case 'reserved':
      return role === 'amateur'
        ? [
            'ラウンドレッスンのご予約ありがとうございます。以下の内容で予約が確定しました。',
          ]
        : [`${who}から、以下のラウンドレッスンに予約が入りました。`];
    case 'cancelled':
      return role === 'amateur'
        ? ['以下のラウンドレッスンのキャンセルを受け付けました。']
        : [`${who}が、以下のラウンドレッスンの予約をキャンセルしました。`];
    case 'calledOff':
      return role === 'amateur'
        ? [
            'ご予約いただいていた以下のラウンドレッスンは、中止となりました。',
            paidOnline
              ? 'お支払いいただいたレッスン料とシステム利用料は全額返金いたします（返金のお知らせを別途お送りします）。ご迷惑をおかけし申し訳ございません。'
              : 'レッスン料のお支払いは不要です。ご迷惑をおかけし申し訳ございません。',
          ]
        : [
            '以下のラウンドレッスンを中止しました。参加者の皆さまにもお知らせしています。',
          ];
    case 'promoted':
      return role === 'amateur'
        ? [
            'キャンセル待ちに登録いただいていたラウンドレッスンに空きが出たため、ご予約が確定しました。',
            cancelClosed
              ? 'レッスン当日のため、このご予約はキャンセルできません。ご都合が悪い場合は、アプリのチャットでプロにご連絡ください。'
              : 'ご都合が悪い場合は、レッスン前日までにアプリからキャンセルしてください。',
          ]
        : [
            `キャンセル待ちの ${who}の予約が、以下のラウンドレッスンで確定しました。`,
          ];
    case 'reminder':
      return role === 'amateur'
        ? ['明日は以下のラウンドレッスンです。お気をつけてお越しください。']
        : [
            '明日は以下のラウンドレッスンです。参加者の皆さまへのご対応をお願いいたします。',
          ];
    case 'changed':
      return [
        'ご予約いただいている以下のラウンドレッスンの内容を、プロが変更しました。最新の内容をご確認ください。',
      ];
    case 'reviewInvite':
      return [
        '以下のラウンドレッスンにご参加いただき、ありがとうございました。',
        'よろしければ、レッスンの感想を口コミ（★1〜5とコメント）でお寄せください。ほかの会員がプロを選ぶ参考になります。アプリのスケジュール画面の「口コミを書く」から投稿できます。',
      ];
  }
}

/**
 * A mail about one lesson, to one member. `link` opens the app where the
 * member acts on it; `reason` is the pro's, when they called the lesson off.
 */
export function lessonNoticeMail(opts: {
  kind: LessonNoticeKind;
  role: NoticeRole;
  to: string;
  recipientName: string;
  amateurName: string;
  lesson: LessonFacts;
  link: string;
  reason?: string;
  /** `changed`: what changed, one line each (「ゴルフ場：A → B」). */
  changes?: string[];
  participants?: string[];
  /** The amateur paid online (the fee is not paid at the course). */
  paidOnline?: boolean;
  /** Sent on the lesson's day or later: the booking can no longer be cancelled. */
  cancelClosed?: boolean;
}): Mail {
  const { kind, role, lesson } = opts;
  const lines = [
    `${opts.recipientName} 様`,
    '',
    ...leadOf(kind, role, opts.amateurName, opts.paidOnline, opts.cancelClosed),
    '',
    ...lessonLines(lesson),
  ];
  if (opts.reason) lines.push(`中止の理由：${opts.reason}`);
  if (opts.changes?.length) lines.push('', '変更点：', ...opts.changes);
  if (role === 'amateur' && (kind === 'reserved' || kind === 'promoted'))
    lines.push(
      opts.paidOnline
        ? `レッスン料：${yen(lesson.fee)}（お支払い済み）`
        : `レッスン料：${yen(lesson.fee)}（当日ゴルフ場でお支払いください）`,
      opts.cancelClosed
        ? 'キャンセル期限：レッスン当日のため、キャンセルはできません'
        : 'キャンセル期限：レッスン前日の23:59まで',
    );
  if (
    role === 'pro' &&
    (kind === 'reminder' || kind === 'calledOff') &&
    opts.participants?.length
  )
    lines.push(`参加者：${opts.participants.join('、')}`);
  lines.push(
    '',
    'アプリで確認する：',
    opts.link,
    '',
    '通知設定はアプリのプロフィール画面から変更できます。',
    SIGNATURE,
  );
  return {
    to: opts.to,
    subject: `【ProAm Connect】${SUBJECTS[kind][role]}（${japaneseDate(lesson.date)} ${lesson.startTime}〜）`,
    text: lines.join('\n'),
  };
}

/** The unread-chat digest: one lesson, messages unread for 30 minutes. */
export function chatDigestMail(opts: {
  to: string;
  recipientName: string;
  lesson: LessonFacts;
  unread: number;
  link: string;
}): Mail {
  return {
    to: opts.to,
    subject: `【ProAm Connect】チャットに未読のメッセージがあります（${japaneseDate(opts.lesson.date)}）`,
    text: [
      `${opts.recipientName} 様`,
      '',
      `以下のラウンドレッスンのチャットに、未読のメッセージが${opts.unread}件あります。`,
      '',
      ...lessonLines(opts.lesson),
      '',
      'チャットを開く：',
      opts.link,
      '',
      'このお知らせは、同じレッスンについて6時間に1回までお送りします。',
      '通知設定はアプリのプロフィール画面から変更できます。',
      SIGNATURE,
    ].join('\n'),
  };
}

/** To a pro when an admin verifies them, or takes the verification back. */
export const proVerifiedMail = (
  to: string,
  name: string,
  verified: boolean,
  link: string,
): Mail => ({
  to,
  subject: verified
    ? '【ProAm Connect】プロ会員の確認が完了しました'
    : '【ProAm Connect】プロ会員の確認状況について',
  text: [
    `${name} 様`,
    '',
    ...(verified
      ? [
          '運営事務局にて、ご登録内容の確認が完了しました。',
          '本日からプロフィールが会員に公開され、ラウンドレッスンの予約を受け付けられます。',
        ]
      : [
          'ご登録内容について再確認が必要となったため、プロフィールの公開とレッスンの予約受付を一時停止しました。',
          '詳しくはお問い合わせフォームからご連絡ください。',
        ]),
    '',
    'アプリを開く：',
    link,
    SIGNATURE,
  ].join('\n'),
});

/** What a payment mail says about the money: the lesson fee and the system fee, tax included. */
export type PaymentFacts = {
  /** The lesson fee paid. */
  amount: number;
  serviceFee: number;
};

const breakdownLines = (p: PaymentFacts) => [
  `レッスン料：${yen(p.amount)}`,
  `システム利用料：${yen(p.serviceFee)}`,
  `合計（税込）：${yen(p.amount + p.serviceFee)}`,
];

/**
 * A mail about one lesson: the subject names it by date and start, the body
 * greets the member, says `lead`, describes the lesson, then `rest`, and
 * ends with the settings hint and the signature.
 */
function aboutLesson(
  o: { to: string; recipientName: string; lesson: LessonFacts },
  title: string,
  lead: string[],
  rest: string[],
): Mail {
  return {
    to: o.to,
    subject: `【ProAm Connect】${title}（${japaneseDate(o.lesson.date)} ${o.lesson.startTime}〜）`,
    text: [
      `${o.recipientName} 様`,
      '',
      ...lead,
      '',
      ...lessonLines(o.lesson),
      '',
      ...rest,
      '',
      '通知設定はアプリのプロフィール画面から変更できます。',
      SIGNATURE,
    ].join('\n'),
  };
}

/**
 * To the pro when a place of their lesson paid online is held for the first
 * on the waiting list: the booking is theirs only once paid (the pro then
 * gets the usual 予約 mail), so this says who was offered it and until when.
 */
export function promotedHoldProMail(opts: {
  to: string;
  recipientName: string;
  lesson: LessonFacts;
  amateurNames: string[];
  holdUntil: string;
  link: string;
}): Mail {
  return aboutLesson(
    opts,
    'キャンセル待ちの方に空きをご案内しました',
    [
      `以下のラウンドレッスンに空きが出たため、キャンセル待ちの ${opts.amateurNames.map((n) => `${n} 様`).join('、')}にご案内しました。`,
      `${opts.holdUntil}までにお支払いが済むと予約が確定し、あらためてお知らせします。期限を過ぎた場合は、次の方にご案内します。`,
    ],
    ['アプリで確認する：', opts.link],
  );
}

/** To the amateur when their card payment has gone through: the place is theirs. */
export function paymentReceivedMail(opts: {
  to: string;
  recipientName: string;
  lesson: LessonFacts;
  payment: PaymentFacts;
  receiptNo?: string;
  /** The printable receipt (領収書). */
  receiptLink: string;
}): Mail {
  return aboutLesson(
    opts,
    'お支払いを受け付けました',
    [
      '以下のラウンドレッスンのお支払いを受け付けました。ご予約は確定しています。',
    ],
    [
      ...breakdownLines(opts.payment),
      ...(opts.receiptNo ? [`領収書番号：${opts.receiptNo}`] : []),
      '',
      '領収書はこちらから表示・印刷できます：',
      opts.receiptLink,
      '',
      'キャンセル期限（レッスン前日の23:59）までのキャンセルは全額返金いたします。',
    ],
  );
}

export type RefundReasonKind = 'cancelled' | 'calledOff' | 'late';

const REFUND_REASONS: Record<RefundReasonKind, string> = {
  cancelled: 'ご予約のキャンセル',
  calledOff: 'ラウンドレッスンの中止',
  late: 'お支払いの完了前に予約枠のお取り置き期限が過ぎ、ご予約をお取りできなかったため',
};

/** To the amateur when Stripe has refunded their payment in full. */
export function refundedMail(opts: {
  to: string;
  recipientName: string;
  lesson: LessonFacts;
  payment: PaymentFacts;
  reason: RefundReasonKind;
  link: string;
}): Mail {
  return aboutLesson(
    opts,
    '返金のお知らせ',
    ['以下のラウンドレッスンのお支払いを、全額返金いたしました。'],
    [
      `返金額：${yen(opts.payment.amount + opts.payment.serviceFee)}（レッスン料 ${yen(opts.payment.amount)}、システム利用料 ${yen(opts.payment.serviceFee)}）`,
      `返金の理由：${REFUND_REASONS[opts.reason]}`,
      '',
      'お支払いに使われたカードへ返金しました。カード会社により反映まで数日かかる場合があります。',
      '',
      'アプリで確認する：',
      opts.link,
    ],
  );
}

/**
 * To the first on the waiting list when a place opens on a lesson paid
 * online: the place is held for them until `holdUntil` (Japan time, HH:MM)
 * and is theirs once they pay at `link`.
 */
export function promotedHoldMail(opts: {
  to: string;
  recipientName: string;
  lesson: LessonFacts;
  holdUntil: string;
  link: string;
}): Mail {
  return aboutLesson(
    opts,
    'キャンセル待ちのレッスンに空きが出ました',
    [
      'キャンセル待ちに登録いただいていたラウンドレッスンに空きが出ました。',
      `${opts.holdUntil}まで予約枠をお取り置きしています。期限までにお支払いいただくと、ご予約が確定します。`,
      '期限を過ぎると、お取り置きは取り消され、次の方にご案内します。',
    ],
    [
      ...breakdownLines({ amount: opts.lesson.fee, serviceFee: SERVICE_FEE }),
      `お支払い期限：${opts.holdUntil}`,
      '',
      'お支払いはこちらから：',
      opts.link,
    ],
  );
}
