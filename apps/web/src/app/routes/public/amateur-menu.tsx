import {
  MemberMenuPage,
  type MemberMenuContent,
} from '@/components/member-menu-page';
import { ENTRY_CONTACT_CATEGORY } from '@/features/competitions/competition-status';
import {
  CANCEL_DEADLINE_LABEL,
  SYSTEM_FEE_LABEL,
} from '@/features/legal/legal-terms';
import { byPaymentMode, PAY_AT_COURSE } from '@/lib/payment-mode';

const LESSON_FEE_GUIDE =
  '各プロが設定した金額（1名あたり12,000円〜30,000円程度が目安です）';

/** Built while rendering: the fees follow the payment mode (byPaymentMode). */
const content = (): MemberMenuContent => ({
  idPrefix: 'amateur',
  title: 'アマチュア会員メニュー',
  titleRight: 'FOR AMATEURS',
  description:
    '「もっと上手くなりたい」「コースでのスコアをまとめたい」。そんな思いを、プロとのラウンドで形にしませんか。会員登録とプロの検索は無料です。',
  benefitsTitle: 'アマチュア会員ができること',
  benefits: [
    {
      title: 'コースで学べるラウンドレッスン',
      text: 'プロと同じ組で18ホール（またはハーフ）を回りながら、その場その場で助言を受けられます。練習場では身につかない、コースマネジメントや傾斜からのショットが学べます。',
    },
    {
      title: '条件にぴったりのプロを検索',
      text: 'エリア、日程、レッスン料金、得意分野やキーワードでプロを探せます。新着順・人気順・料金順での並べ替えにも対応しています。',
    },
    {
      title: '「いいね」でお気に入り登録',
      text: '気になるプロに「いいね」をしておけば、あとからすぐにプロフィールやレッスン日程を確認できます。',
    },
    {
      title: 'レッスン参加者とチャット',
      text: '予約したレッスンごとにチャットが使えます。プロや同じ組の参加者と、集合時間や持ち物を事前に確認できます。',
    },
    {
      title: 'マイスケジュールで予定を管理',
      text: `予約したレッスンは日付順に一覧で確認できます。ご都合が悪くなった場合は、${CANCEL_DEADLINE_LABEL}まで画面からキャンセルできます。`,
    },
    {
      title: '大会・イベントに参加',
      text: `プロと一緒にプレーできるプロアム大会や、会員同士の交流イベントに参加できます。エントリーはお問い合わせフォーム（お問い合わせ種別「${ENTRY_CONTACT_CATEGORY}」）で受け付け、結果はイベント日程・結果ページに掲載します。`,
    },
  ],
  stepsTitle: 'ご予約の流れ',
  steps: [
    {
      title: '無料会員登録',
      text: 'メールアドレスに届く確認コードを入力し、「アマチュア会員」として登録します。',
    },
    {
      title: 'プロを探す',
      text: 'エリアや日程、料金で検索し、プロフィールと公開中のラウンドレッスンを確認します。',
    },
    {
      title: '予約する',
      text: '空きのあるレッスンを選んで予約。定員に達したレッスンは満員と表示されます。',
    },
    {
      title: '当日ラウンド',
      text: 'チャットで集合時間を確認し、当日はゴルフ場へ。プロと一緒にラウンドを楽しみましょう。',
    },
  ],
  stepsNote: byPaymentMode({
    online: `キャンセルは${CANCEL_DEADLINE_LABEL}まで、スケジュール画面から無料で行えます（お支払い済みの料金は全額返金）。レッスン当日以降はキャンセルできません。雨天などでプロがレッスンを中止した場合は、お支払い済みの料金を全額返金します。`,
    atCourse: `キャンセルは${CANCEL_DEADLINE_LABEL}まで、スケジュール画面から無料で行えます。レッスン当日以降はキャンセルできません。雨天などでプロがレッスンを中止した場合、料金はかかりません。`,
  }),
  feesCaption: 'アマチュア会員の料金',
  fees: [
    { label: '入会金・年会費', value: '0円' },
    { label: 'プロの検索・いいね', value: '無料' },
    ...byPaymentMode({
      online: [
        { label: 'ラウンドレッスン料', value: LESSON_FEE_GUIDE },
        { label: 'システム利用料', value: `1予約につき${SYSTEM_FEE_LABEL}` },
      ],
      atCourse: [
        {
          label: 'ラウンドレッスン料',
          value: `${LESSON_FEE_GUIDE}。${PAY_AT_COURSE}`,
        },
        { label: 'システム利用料', value: '0円' },
      ],
    }),
    {
      label: 'プレー費',
      value:
        'グリーンフィー・カート代などは、当日ゴルフ場へ直接お支払いください',
    },
  ],
  primaryAction: { to: '/auth/register', label: '無料で会員登録' },
  secondaryAction: { to: '/campaignDetails/1', label: 'キャンペーンを見る' },
});

const AmateurMenuRoute = () => <MemberMenuPage content={content()} />;

export default AmateurMenuRoute;
