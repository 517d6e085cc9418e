import { Link } from 'react-router';
import {
  ChatIcon,
  ChevronRightIcon,
  FlagIcon,
  HeartIcon,
  TrophyIcon,
  UserIcon,
} from '@/components/icons';
import { PageSection } from '@/components/page-section';
import { queryFallback } from '@/components/query-state';
import { upcomingCompetitions } from '@/features/competitions/competition-status';
import { useGetCompetitionsQuery } from '@/features/competitions/competitions-api';
import { CompetitionCard } from '@/features/competitions/components/competition-card';
import { useGetNewsListQuery } from '@/features/news/news-api';
import { NewsList } from '@/features/news/components/news-list';
import { useDocumentTitle } from '@/hooks/use-document-title';

const LatestNews = () => {
  const { data, isLoading, isError, refetch } = useGetNewsListQuery({
    page: 1,
    size: 3,
  });
  const fallback = queryFallback(
    { isLoading, isError, refetch },
    '最新情報を読み込み中',
    '最新情報を読み込めませんでした。',
  );
  if (fallback) return fallback;
  if (!data || data.length === 0)
    return <p className="muted">現在お知らせはありません。</p>;
  return <NewsList items={data.slice(0, 3)} />;
};

const UpcomingCompetitions = () => {
  const { data, isLoading, isError, refetch } = useGetCompetitionsQuery({});
  const fallback = queryFallback(
    { isLoading, isError, refetch },
    '大会情報を読み込み中',
    '大会情報を読み込めませんでした。',
  );
  if (fallback) return fallback;
  const upcoming = upcomingCompetitions(data ?? []).slice(0, 3);
  if (upcoming.length === 0) {
    return (
      <p className="muted">
        現在、開催予定の大会はありません。次回の発表をお待ちください。
      </p>
    );
  }
  return (
    <div className="card-grid">
      {upcoming.map((c) => (
        <CompetitionCard key={c.id} competition={c} />
      ))}
    </div>
  );
};

const FEATURES = [
  {
    icon: <UserIcon />,
    title: 'プロを探す',
    text: 'エリア、レッスン料金、日程、得意分野からプロを検索。プロフィールや経歴を見比べて、自分に合うプロが見つかります。',
  },
  {
    icon: <FlagIcon />,
    title: 'ラウンドレッスンを予約',
    text: 'プロが公開しているラウンドレッスンに空きがあれば、その場で予約が完了。1組最大4名の少人数制です。',
  },
  {
    icon: <ChatIcon />,
    title: 'チャットで事前相談',
    text: '予約したレッスンごとにチャットが使えます。集合時間の確認や、当日見てほしいポイントの相談もスムーズです。',
  },
  {
    icon: <TrophyIcon />,
    title: '大会・イベントに参加',
    text: 'プロと一緒にプレーできるプロアム大会や交流イベントを定期開催。日程と結果はサイトでいつでも確認できます。',
  },
];

/** 無料で会員登録 and one lighter way on, at the top and the foot of the page. */
const RegisterActions = ({
  className,
  other,
}: {
  className: string;
  other: { to: string; label: string };
}) => (
  <div className={className}>
    <Link to="/auth/register" className="button button--accent button--large">
      無料で会員登録
    </Link>
    <Link to={other.to} className="button button--ghost button--large">
      {other.label}
    </Link>
  </div>
);

const LandingRoute = () => {
  useDocumentTitle(null);
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <svg
          className="hero__art"
          viewBox="0 0 320 360"
          aria-hidden="true"
          focusable="false"
        >
          <ellipse cx="160" cy="318" rx="150" ry="30" fill="#3f9a63" />
          <ellipse cx="160" cy="318" rx="96" ry="18" fill="#5cb27c" />
          <ellipse cx="178" cy="318" rx="16" ry="6" fill="#0b3d27" />
          <path
            d="M178 318V40"
            stroke="#fff"
            strokeWidth="6"
            strokeLinecap="round"
          />
          <path d="M181 44l104 38-104 38z" fill="#e8a33d" />
          <circle cx="118" cy="300" r="13" fill="#fff" />
          <path
            d="M111 295a3 3 0 1 0 .1 0M121 293a3 3 0 1 0 .1 0M116 303a3 3 0 1 0 .1 0"
            fill="#d5e0d8"
          />
        </svg>
        <div className="container hero__inner">
          <p className="hero__eyebrow">プロゴルファー × アマチュアゴルファー</p>
          <h1 id="hero-title" className="hero__title">
            <span className="nowrap">プロと回る</span>
            <span className="nowrap">18ホールで、</span>
            <br />
            <span className="nowrap">あなたのゴルフが</span>
            <span className="nowrap">変わる。</span>
          </h1>
          <p className="hero__lead">
            ProAm Connect
            は、プロゴルファーとアマチュアゴルファーをつなぐ会員制のマッチングサービスです。
            実戦のコースで、プロのマネジメントと技術を間近で学べるラウンドレッスンを、スマートフォンから探して予約できます。
          </p>
          <RegisterActions
            className="hero__actions"
            other={{ to: '/auth', label: 'ログイン' }}
          />
        </div>
      </section>

      <PageSection
        id="about-service"
        eyebrow="SERVICE"
        title="ProAm Connect でできること"
      >
        <p className="section__lead">
          レッスン場の打席ではなく、本物のコースで。プロと同じ組でラウンドしながら、状況判断やクラブ選び、メンタルの整え方まで、スコアにつながる実践的な学びを提供します。
        </p>
        <ul className="feature-grid">
          {FEATURES.map((f) => (
            <li key={f.title} className="feature">
              <span className="feature__icon">{f.icon}</span>
              <h3 className="feature__title">{f.title}</h3>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection
        id="for-members"
        eyebrow="FOR MEMBERS"
        title="プロの方へ、アマチュアの方へ"
        tinted
      >
        <div className="audience-grid">
          <article className="audience-card audience-card--pro">
            <h3 className="audience-card__title">プロゴルファーの方へ</h3>
            <p>
              空いている日程をラウンドレッスンとして公開するだけで、レッスンを受けたいアマチュアとつながれます。集客や日程調整の手間を減らし、指導に集中できます。
            </p>
            <ul className="check-list">
              <li>レッスン日程・定員・料金を自由に設定</li>
              <li>予約状況と参加者をひと目で確認</li>
              <li>参加者とのチャットで事前の打ち合わせ</li>
            </ul>
            <Link to="/promenu" className="text-link">
              プロ会員メニューを見る
              <ChevronRightIcon width={18} height={18} />
            </Link>
          </article>
          <article className="audience-card audience-card--amateur">
            <h3 className="audience-card__title">アマチュアゴルファーの方へ</h3>
            <p>
              「コースに出るとスコアがまとまらない」「100切り、90切りを目指したい」。そんな悩みを、プロと同じ組で回りながら解決しませんか。
            </p>
            <ul className="check-list">
              <li>会員登録・プロ検索は無料</li>
              <li>気になるプロに「いいね」して最新情報をチェック</li>
              <li>初心者から競技志向の方まで対応</li>
            </ul>
            <Link to="/amateurmenu" className="text-link">
              アマチュア会員メニューを見る
              <ChevronRightIcon width={18} height={18} />
            </Link>
          </article>
        </div>
      </PageSection>

      <section className="section" aria-labelledby="campaign">
        <div className="container">
          <Link to="/campaignDetails/1" className="campaign-teaser">
            <span className="campaign-teaser__label">キャンペーン実施中</span>
            <span id="campaign" className="campaign-teaser__title">
              はじめてのラウンドレッスン応援キャンペーン
            </span>
            <span className="campaign-teaser__text">
              会員登録・プロ検索は無料、キャンセルはレッスン前日まで無料。詳しくはこちら
            </span>
            <ChevronRightIcon className="campaign-teaser__chevron" />
          </Link>
        </div>
      </section>

      <PageSection
        id="latest-news"
        eyebrow="NEWS"
        title="最新情報"
        tinted
        more={{ to: '/info', label: '一覧を見る' }}
      >
        <LatestNews />
      </PageSection>

      <PageSection
        id="upcoming"
        eyebrow="EVENTS"
        title="開催予定の大会"
        more={{ to: '/event', label: '日程・結果を見る' }}
      >
        <UpcomingCompetitions />
      </PageSection>

      <section className="cta" aria-labelledby="cta-title">
        <div className="container cta__inner">
          <HeartIcon className="cta__icon" width={32} height={32} />
          <h2 id="cta-title" className="cta__title">
            さあ、プロと一緒にコースへ。
          </h2>
          <p className="cta__text">
            会員登録は無料、最短1分で完了します。まずはお近くのプロを探してみませんか。
          </p>
          <RegisterActions
            className="button-row button-row--center"
            other={{ to: '/qa', label: 'よくある質問' }}
          />
        </div>
      </section>
    </>
  );
};

export default LandingRoute;
