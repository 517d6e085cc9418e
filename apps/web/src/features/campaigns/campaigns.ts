import bannerUrl from '@/assets/campaign-1-banner.svg';

export type Campaign = {
  id: number;
  title: string;
  banner?: { src: string; alt: string; width: number; height: number };
};

/** The built-in campaign list the seed describes: two entries, only the first with a banner. */
export const CAMPAIGNS: readonly Campaign[] = [
  {
    id: 1,
    title: 'はじめてのラウンドレッスン応援キャンペーン',
    banner: {
      src: bannerUrl,
      alt: 'はじめてのラウンドレッスン応援キャンペーン。新規アマチュア会員の初回ラウンドレッスン参加費が20%オフ。プロと回る18ホールで、あなたのゴルフが変わる。',
      width: 1200,
      height: 500,
    },
  },
  { id: 2, title: 'プロ会員紹介キャンペーン' },
];

/** What every id other than 1 shows, 2 included: it has no banner. */
export const NO_MORE_INFO = '現在、これ以上の情報はございません。';

export const findCampaign = (id: string | undefined): Campaign | undefined => {
  if (!id || !/^\d+$/.test(id)) return undefined;
  const n = Number(id);
  return CAMPAIGNS.find((c) => c.id === n);
};
