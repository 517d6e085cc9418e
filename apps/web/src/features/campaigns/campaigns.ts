import bannerUrl from './campaign-1-banner.svg';

/** One line of a campaign's conditions, as the details page lists them. */
export type CampaignDetail = { label: string; value: string };

export type Campaign = {
  id: number;
  title: string;
  banner?: { src: string; alt: string; width: number; height: number };
  /**
   * What the campaign offers, in text under the banner. Only what the
   * product does: no booking applies a discount, so none is offered.
   */
  details?: readonly CampaignDetail[];
};

/** The built-in campaign list the seed describes: two entries, only the first with a banner. */
export const CAMPAIGNS: readonly Campaign[] = [
  {
    id: 1,
    title: 'はじめてのラウンドレッスン応援キャンペーン',
    banner: {
      src: bannerUrl,
      alt: 'はじめてのラウンドレッスン応援キャンペーン。会員登録・プロ検索は無料。レッスン前日までキャンセル無料。プロと回るラウンドで、あなたのゴルフが変わる。',
      width: 1200,
      height: 500,
    },
    details: [
      {
        label: '対象',
        value: 'これからラウンドレッスンを始めたいアマチュアゴルファーの方',
      },
      {
        label: '会員登録',
        value:
          '会員登録、プロの検索、「いいね」は無料です。入会金・年会費はかかりません。',
      },
      {
        label: 'プロの探し方',
        value:
          'エリア・日程・料金で絞り込めるほか、「初心者」などのキーワードで得意分野からもプロを探せます。',
      },
      {
        label: '事前の相談',
        value:
          '予約したレッスンのチャットで、プロや同じ組の参加者と、集合時間や持ち物を事前に確認できます。',
      },
      {
        label: 'キャンセル',
        value:
          'レッスン前日の23時59分（日本時間）まで、スケジュール画面から無料でキャンセルできます。レッスン当日以降はキャンセルできません。',
      },
      {
        label: 'レッスン料',
        value:
          '各プロが設定した金額です。本キャンペーンによるレッスン料の割引はありません。',
      },
    ],
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
