import { PageHeader } from './page-header';

/**
 * The title block of each member tab, in one place: the tab's page renders
 * it, and so does the member area while a stored login is being confirmed
 * (app/routes/tabs/tabs-layout.tsx), which is what the build prerenders for
 * a returning member (app/prerendered-pages.ts). Both must say the same, or
 * the page would change under the member's eyes once the app has run; and
 * the same for pros and amateurs, since nothing the page knows before the
 * app has run says which one is coming back.
 */
export type TabHeader = {
  title: string;
  titleRight: string;
  description: string;
};

const HEADERS: Record<string, TabHeader> = {
  '/tabs/schedule': {
    title: 'スケジュール',
    titleRight: 'SCHEDULE',
    description:
      'アマチュアの方は予約中のラウンドレッスンの確認・キャンセル、キャンセル待ち、受講したレッスンの口コミ、プロの方はレッスンの登録・編集と日ごとのラウンド状況の設定ができます。',
  },
  '/tabs/likes': {
    title: 'いいね',
    titleRight: 'LIKES',
    description:
      'アマチュアの方はいいねしたプロの一覧とプロ検索、プロの方はいいねしてくれた会員といいねの数をご覧いただけます。',
  },
  '/tabs/chat': {
    title: 'チャット',
    titleRight: 'CHAT',
    description: 'ラウンドレッスンごとに、プロと参加者で連絡を取り合えます。',
  },
  '/tabs/competitions': {
    title: '大会',
    titleRight: 'COMPETITIONS',
    description:
      'ProAm Connect のプロアム大会の開催予定と、終了した大会の結果をご覧いただけます。',
  },
  '/tabs/profile': {
    title: 'プロフィール',
    titleRight: 'PROFILE',
    description:
      'ほかの会員に表示されるプロフィールと写真（最大6枚）の編集、メール通知の設定、ログアウトと退会ができます。',
  },
};

/** The tabs that have a title block of their own, by path. */
export const MEMBER_TAB_PATHS = Object.keys(HEADERS);

/** The title block of the tab at `path` (a trailing slash allowed), or null for any other page. */
export const memberTabHeader = (path: string): TabHeader | null =>
  HEADERS[path.replace(/\/+$/, '')] ?? null;

/** A member tab's breadcrumb and title block (`path`: one of MEMBER_TAB_PATHS). */
export const MemberTabHeader = ({ path }: { path: string }) => (
  <PageHeader section="会員メニュー" {...memberTabHeader(path)} />
);
