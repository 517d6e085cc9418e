import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/hooks/use-document-title';

const BENEFITS = [
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
    text: '予約したレッスンは日付順に一覧で確認できます。ご都合が悪くなった場合は、画面からキャンセルの手続きができます。',
  },
  {
    title: '大会・イベントに参加',
    text: 'プロと一緒にプレーできるプロアム大会や、会員同士の交流イベントに参加できます。結果はイベント日程・結果ページに掲載します。',
  },
];

const STEPS = [
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
];

const AmateurMenuRoute = () => {
  useDocumentTitle('アマチュア会員メニュー');
  return (
    <>
      <PageHeader
        section="アマチュア会員メニュー"
        title="アマチュア会員メニュー"
        titleRight="FOR AMATEURS"
        description="「もっと上手くなりたい」「コースでのスコアをまとめたい」。そんな思いを、プロとのラウンドで形にしませんか。会員登録とプロの検索は無料です。"
      />

      <section className="section" aria-labelledby="amateur-benefits">
        <div className="container">
          <h2 id="amateur-benefits" className="section__title">
            アマチュア会員ができること
          </h2>
          <ul className="benefit-grid">
            {BENEFITS.map((b) => (
              <li key={b.title} className="benefit">
                <h3 className="benefit__title">{b.title}</h3>
                <p>{b.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        className="section section--tinted"
        aria-labelledby="amateur-steps"
      >
        <div className="container">
          <h2 id="amateur-steps" className="section__title">
            ご予約の流れ
          </h2>
          <ol className="steps">
            {STEPS.map((s, i) => (
              <li key={s.title} className="steps__item">
                <span className="steps__number" aria-hidden="true">
                  {i + 1}
                </span>
                <div>
                  <h3 className="steps__title">{s.title}</h3>
                  <p>{s.text}</p>
                </div>
              </li>
            ))}
          </ol>
          <p className="muted">
            キャンセルはレッスン前日まで画面から行えます。当日のキャンセルや天候による中止の扱いは、各レッスンの案内とチャットでご確認ください。
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="amateur-fees">
        <div className="container">
          <h2 id="amateur-fees" className="section__title">
            料金
          </h2>
          <div className="table-scroll">
            <table className="data-table">
              <caption className="visually-hidden">
                アマチュア会員の料金
              </caption>
              <tbody>
                <tr>
                  <th scope="row">入会金・年会費</th>
                  <td>0円</td>
                </tr>
                <tr>
                  <th scope="row">プロの検索・いいね</th>
                  <td>無料</td>
                </tr>
                <tr>
                  <th scope="row">ラウンドレッスン料</th>
                  <td>
                    各プロが設定した金額（1名あたり12,000円〜30,000円程度が目安です）
                  </td>
                </tr>
                <tr>
                  <th scope="row">システム利用料</th>
                  <td>1予約につき550円（税込）</td>
                </tr>
                <tr>
                  <th scope="row">プレー費</th>
                  <td>
                    グリーンフィー・カート代などは、当日ゴルフ場へ直接お支払いください
                  </td>
                </tr>
              </tbody>
            </table>
          </div>
          <div className="button-row">
            <Link
              to="/auth/register"
              className="button button--primary button--large"
            >
              無料で会員登録
            </Link>
            <Link
              to="/campaignDetails/1"
              className="button button--outline button--large"
            >
              キャンペーンを見る
            </Link>
          </div>
        </div>
      </section>
    </>
  );
};

export default AmateurMenuRoute;
