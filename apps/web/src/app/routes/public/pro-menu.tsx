import {
  MemberMenuPage,
  type MemberMenuContent,
} from '@/components/member-menu-page';
import { byPaymentMode } from '@/lib/payment-mode';

/** Built while rendering: how the pro is paid follows the payment mode (byPaymentMode). */
const content = (): MemberMenuContent => ({
  idPrefix: 'pro',
  title: 'プロ会員メニュー',
  titleRight: 'FOR PROFESSIONALS',
  description:
    'ラウンドレッスンを通じて、あなたの技術と経験を必要としているゴルファーに届けませんか。ProAm Connect は、プロゴルファーの指導活動を集客から日程調整までサポートします。',
  benefitsTitle: 'プロ会員ができること',
  benefits: [
    {
      title: '空き日程をそのままレッスンに',
      text: '日付・開始時刻・ゴルフ場・定員（1〜4名）・料金を入力するだけで、ラウンドレッスンを公開できます。日ごとに受付中・満員・締切などの状況も切り替えられます。',
    },
    {
      title: '集客と日程調整をおまかせ',
      text: 'エリアや得意分野で検索したアマチュア会員にあなたのプロフィールが表示されます。予約は先着順で自動的に確定するため、個別のやり取りは不要です。',
    },
    {
      title: '参加者と事前にチャット',
      text: 'レッスンごとに参加者専用のチャットが用意されます。集合時間や当日のテーマを事前に共有でき、初対面でもスムーズにラウンドを始められます。',
    },
    {
      title: 'ファンが見える「いいね」',
      text: 'あなたに「いいね」したアマチュア会員の数と顔ぶれを確認できます。継続して受講してくれるファンづくりにお役立てください。',
    },
    {
      title: 'プロフィールで強みを発信',
      text: '所属、経歴、ホームコース、得意分野、写真（最大6枚）を掲載できます。指導スタイルが伝わるプロフィールが予約につながります。',
    },
    {
      title: '大会・イベントへの出演',
      text: '当社主催のプロアム大会や交流イベントへのゲスト出演のご相談も承ります。活躍の場を広げたいプロの方を応援します。',
    },
  ],
  stepsTitle: 'ご利用開始までの流れ',
  steps: [
    {
      title: '会員登録',
      text: 'メールアドレスに届く確認コードを入力し、「プロ会員」として登録します。',
    },
    {
      title: 'プロフィールの作成',
      text: '所属団体や資格、経歴、ホームコース、レッスン料金の目安を入力し、写真を登録します。',
    },
    {
      title: '当社による確認',
      text: 'ご登録内容を当社スタッフが確認します。資格の確認のため、ご連絡を差し上げる場合があります。',
    },
    {
      title: 'レッスンの公開',
      text: 'スケジュール画面からラウンドレッスンを作成して公開。予約が入るとお知らせします。',
    },
  ],
  stepsNote:
    'ご登録いただけるのは、日本プロゴルフ協会（PGA）・日本女子プロゴルフ協会（LPGA）の会員、ティーチングプロ資格をお持ちの方、またはそれに準ずる指導経験をお持ちの方です。',
  feesCaption: 'プロ会員の料金',
  fees: [
    { label: '初期登録費・月額基本料', value: '0円' },
    {
      label: '成約手数料',
      value: 'レッスン料の10%（予約が成立したレッスンのみ）',
    },
    {
      label: 'レッスン料金',
      value: 'プロご自身で自由に設定できます（1名あたり0円〜）',
    },
    byPaymentMode({
      online: {
        label: 'お支払い',
        value:
          '月末締め・翌月末に、手数料を差し引いた金額をご指定の口座へお振り込みします',
      },
      atCourse: {
        label: 'レッスン料の受け取り',
        value:
          'レッスン当日にゴルフ場で、参加者から直接お受け取りください（現地払い）。成約手数料は月末締めで精算します',
      },
    }),
  ],
  feesNote:
    'プロ会員にかかる料金は、予約が成立したレッスンの成約手数料のみです。退会時の違約金もかかりません。',
  primaryAction: { to: '/auth/register', label: 'プロ会員として登録する' },
  secondaryAction: { to: '/contact', label: '登録について相談する' },
});

const ProMenuRoute = () => <MemberMenuPage content={content()} />;

export default ProMenuRoute;
