import { PageHeader } from './page-header';

/**
 * The title block of each member tab, in one place: the tab's page renders
 * it, and so does the member area while a stored login is being confirmed
 * (app/routes/tabs/tabs-layout.tsx), which is what the build prerenders for
 * a returning member (app/prerendered-pages.ts). Both must say the same, or
 * the page would change under the member's eyes once the app has run.
 */
export type TabHeader = {
  title: string;
  titleRight: string;
  description?: string;
};

/** Pros read other words than amateurs on some tabs; admins and buyers read the amateurs'. */
export type TabReader = 'pro' | 'member';

const HEADERS: Record<string, (reader: TabReader) => TabHeader> = {
  '/tabs/schedule': (reader) => ({
    title: 'スケジュール',
    titleRight: 'SCHEDULE',
    description:
      reader === 'pro'
        ? 'ラウンドレッスンの登録・編集と、日ごとのラウンド状況の設定ができます。'
        : '予約中のラウンドレッスンの確認とキャンセル、キャンセル待ち、カレンダーへの追加、レッスンのチャット、受講したレッスンの口コミができます。',
  }),
  '/tabs/likes': (reader) => ({
    title: 'いいね',
    titleRight: 'LIKES',
    description:
      reader === 'pro'
        ? 'あなたにいいねした会員と、いいねの数を確認できます。'
        : 'いいねしたプロの一覧と、エリア・料金・日付・キーワードでのプロ検索ができます。',
  }),
  '/tabs/chat': () => ({
    title: 'チャット',
    titleRight: 'CHAT',
    description: 'ラウンドレッスンごとに、プロと参加者で連絡を取り合えます。',
  }),
  '/tabs/competitions': () => ({
    title: '大会',
    titleRight: 'COMPETITIONS',
    description:
      'ProAm Connect のプロアム大会の開催予定と、終了した大会の結果をご覧いただけます。',
  }),
  '/tabs/profile': () => ({
    title: 'プロフィール',
    titleRight: 'PROFILE',
    description:
      'ほかの会員に表示されるプロフィールと写真の編集、ログイン情報の管理ができます。',
  }),
};

/** The tabs that have a title block of their own, by path. */
export const MEMBER_TAB_PATHS = Object.keys(HEADERS);

/** The title block of the tab at `path`, or null for any other page. */
export const memberTabHeader = (
  path: string,
  reader: TabReader,
): TabHeader | null => HEADERS[path]?.(reader) ?? null;

/** A member tab's breadcrumb and title block (`path`: one of MEMBER_TAB_PATHS). */
export const MemberTabHeader = ({
  path,
  reader,
}: {
  path: string;
  reader: TabReader;
}) => <PageHeader section="会員メニュー" {...memberTabHeader(path, reader)} />;
