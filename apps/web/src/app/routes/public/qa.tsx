import { Link } from 'react-router';
import { IndexedSection, SectionIndex } from '@/components/in-page-link';
import { NoticeCard } from '@/components/notice-card';
import { PageHeader } from '@/components/page-header';
import { ENTRY_CONTACT_CATEGORY } from '@/features/competitions/competition-status';
import {
  CANCEL_DEADLINE_LABEL,
  SYSTEM_FEE_LABEL,
} from '@/features/legal/legal-terms';
import { byPaymentMode, PAY_AT_COURSE } from '@/lib/payment-mode';
import { useDocumentTitle } from '@/hooks/use-document-title';

type Qa = { q: string; a: string };
type QaGroup = { id: string; title: string; items: Qa[] };

/** Built while rendering: the fee answers follow the payment mode (byPaymentMode). */
const qaGroups = (): QaGroup[] => [
  {
    id: 'service',
    title: 'サービス全般について',
    items: [
      {
        q: 'ProAm Connect とはどのようなサービスですか？',
        a: 'プロゴルファーが公開するラウンドレッスンを、アマチュアゴルファーが検索・予約できる会員制のマッチングサービスです。実際のコースでプロと同じ組で回りながら、実践的なアドバイスを受けられます。',
      },
      {
        q: 'ラウンドレッスンとは何ですか？',
        a: 'ゴルフ場でプロと一緒にラウンドしながら受けるレッスンです。ショットの技術だけでなく、コースマネジメント、クラブ選択、傾斜やバンカーからの打ち方など、コースでしか学べない内容を身につけられます。1組あたりの定員は最大4名です。',
      },
      {
        q: 'スマートフォンから利用できますか？',
        a: 'はい。パソコン・スマートフォン・タブレットのブラウザからご利用いただけます。スマートフォン向けのアプリも順次提供予定です。',
      },
    ],
  },
  {
    id: 'amateur',
    title: 'アマチュア会員について',
    items: [
      {
        q: '会員登録に費用はかかりますか？',
        a: byPaymentMode({
          online: `入会金・年会費は無料です。ラウンドレッスンを予約した場合に、プロが設定したレッスン料と1予約あたり${SYSTEM_FEE_LABEL}のシステム利用料がかかり、予約時にクレジットカードでお支払いいただきます。グリーンフィーなどのプレー費は、当日ゴルフ場へ直接お支払いください。`,
          atCourse: `入会金・年会費・システム利用料は無料です。ラウンドレッスンを予約した場合は、プロが設定したレッスン料のみがかかります。${PAY_AT_COURSE}。グリーンフィーなどのプレー費も、当日ゴルフ場へ直接お支払いください。`,
        }),
      },
      {
        q: '初心者でも参加できますか？',
        a: 'もちろんです。初心者向けのレッスンを得意とするプロも多数在籍しています。プロフィールの得意分野やレッスン内容を確認し、ご自身のレベルに合うプロをお選びください。',
      },
      {
        q: '予約をキャンセルできますか？',
        a: byPaymentMode({
          online: `${CANCEL_DEADLINE_LABEL}まで、スケジュール画面から無料でキャンセルでき、お支払い済みのレッスン料とシステム利用料は全額返金します。レッスン当日以降はキャンセルできません（お支払い済みの料金は返金されません）。雨天などでプロがレッスンを中止した場合は、お支払い済みの料金を全額返金します。`,
          atCourse: `${CANCEL_DEADLINE_LABEL}まで、スケジュール画面から無料でキャンセルできます。レッスン当日以降はキャンセルできません。雨天などでプロがレッスンを中止した場合、料金はかかりません。`,
        }),
      },
      {
        q: '友人と一緒に参加できますか？',
        a: 'はい。同じレッスンに空きがあれば、ご友人もそれぞれ会員登録のうえ予約することで、同じ組で参加できます。',
      },
    ],
  },
  {
    id: 'pro',
    title: 'プロ会員について',
    items: [
      {
        q: 'プロ会員として登録できる条件はありますか？',
        a: '日本プロゴルフ協会（PGA）・日本女子プロゴルフ協会（LPGA）の会員、ティーチングプロ資格をお持ちの方、またはそれに準ずる指導経験をお持ちの方が対象です。ご登録後、当社で内容を確認させていただきます。',
      },
      {
        q: 'レッスン料金は自分で決められますか？',
        a: 'はい。レッスンごとに料金・定員・集合時間・ゴルフ場を自由に設定できます。成約手数料として、予約が成立したレッスンのレッスン料の10%を頂戴します。',
      },
      {
        q: '売上はいつ受け取れますか？',
        a: byPaymentMode({
          online:
            '月末締めで集計し、翌月末に手数料を差し引いた金額をご指定の口座へお振り込みします。',
          atCourse:
            'レッスン料は、レッスン当日にゴルフ場で参加者から直接お受け取りください（現地払い）。成約手数料は月末締めで集計し、当社所定の方法で精算します。',
        }),
      },
    ],
  },
  {
    id: 'events',
    title: '大会・イベントについて',
    items: [
      {
        q: '大会には誰でも参加できますか？',
        a: `参加資格は大会ごとに異なりますので、各大会の案内をご確認ください。日程・参加費・エントリー締切は、イベント日程・結果ページに掲載しています。エントリーは、お問い合わせフォームでお問い合わせ種別「${ENTRY_CONTACT_CATEGORY}」を選び、大会名を添えてお申し込みください。`,
      },
      {
        q: '大会の結果はどこで確認できますか？',
        a: 'イベント日程・結果ページに、終了した大会の順位とスコアを掲載しています。',
      },
    ],
  },
];

const QaRoute = () => {
  useDocumentTitle('よくある質問');
  const groups = qaGroups();
  return (
    <>
      <PageHeader
        section="よくある質問"
        title="よくある質問"
        titleRight="Q&A"
        description="ProAm Connect について、お客さまからよくいただくご質問をまとめました。質問をクリック（タップ）すると回答が表示されます。"
      />
      <div className="container section narrow">
        <nav className="qa-index" aria-label="質問のカテゴリ">
          <SectionIndex sections={groups} idPrefix="qa" />
        </nav>
        {groups.map((g) => (
          <IndexedSection
            key={g.id}
            section={g}
            idPrefix="qa"
            className="qa-group"
            headingClassName="qa-group__title"
          >
            {g.items.map((item) => (
              <details key={item.q} className="qa-item">
                <summary className="qa-item__q">
                  <span className="qa-item__mark" aria-hidden="true">
                    Q
                  </span>
                  <span>{item.q}</span>
                </summary>
                <div className="qa-item__a">
                  <span
                    className="qa-item__mark qa-item__mark--a"
                    aria-hidden="true"
                  >
                    A
                  </span>
                  <p>{item.a}</p>
                </div>
              </details>
            ))}
          </IndexedSection>
        ))}
        <NoticeCard
          lead="解決しない場合は"
          text="こちらに掲載のないご質問は、お問い合わせフォームからお気軽にご連絡ください。"
          actions={
            <Link to="/contact" className="button button--primary">
              お問い合わせ
            </Link>
          }
        />
      </div>
    </>
  );
};

export default QaRoute;
