import type { AuditEntry } from '@proam/contract';
import { api, numberedPages } from '@/lib/api';

/** Rows a page of /audit/list holds (the API's default; at most 200). */
export const AUDIT_PAGE_SIZE = 50;

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The admins' change log, newest first, a page at a time. */
    getAuditLog: build.infiniteQuery<AuditEntry[], void, number>({
      infiniteQueryOptions: numberedPages(AUDIT_PAGE_SIZE),
      query: ({ pageParam }) => ({
        path: '/audit/list',
        body: { page: pageParam, size: AUDIT_PAGE_SIZE },
      }),
    }),
  }),
});

export const { useGetAuditLogInfiniteQuery } = auditApi;

const ACTION_LABELS: Record<string, string> = {
  'competition.create': '大会を作成',
  'competition.update': '大会を更新',
  'competition.delete': '大会を削除',
  'news.create': 'お知らせを作成',
  'news.update': 'お知らせを更新',
  'news.delete': 'お知らせを削除',
  'contact.update': 'お問い合わせの対応状況を変更',
  'user.verifyPro': 'プロの確認状態を変更',
  'user.suspend': '会員を利用停止',
  'user.unsuspend': '会員の利用停止を解除',
  'report.resolve': '通報を対応済みに変更',
  'payment.refundRetry': '返金を再試行',
};

/** `competition.create` → 大会を作成; unknown actions are shown as they are. */
export const auditActionLabel = (action: string): string =>
  ACTION_LABELS[action] ?? action;

const FIELD_LABELS: Record<string, string> = {
  name: '大会名',
  date: '開催日',
  venue: '会場',
  area: 'エリア',
  description: '概要',
  capacity: '定員',
  entryFee: '参加費',
  entryDeadline: 'エントリー締切',
  status: 'ステータス',
  results: '結果',
  title: 'タイトル',
  body: '本文',
  category: 'カテゴリ',
  imageUrl: '画像',
  publishedAt: '公開日時',
  handled: '対応状況',
};

/**
 * A short Japanese summary of an entry's detail, as the API's audit writers
 * shape it (apps/api/src/routes): changed `fields`, a competition's `name`,
 * a news `title`, a contact's `handled`, a suspension's `reason`, a report's
 * `resolution`, verifyPro's `verified`.
 */
export const auditDetailText = (detail: AuditEntry['detail']): string => {
  if (!detail) return '';
  const parts: string[] = [];
  const { fields, name, title, handled, verified, reason, resolution } = detail;
  if (typeof name === 'string') parts.push(name);
  if (typeof title === 'string') parts.push(title);
  if (Array.isArray(fields) && fields.length)
    parts.push(
      `変更: ${fields.map((f) => FIELD_LABELS[String(f)] ?? String(f)).join('・')}`,
    );
  if (typeof handled === 'boolean') parts.push(handled ? '対応済み' : '未対応');
  if (typeof verified === 'boolean')
    parts.push(verified ? '確認済みにした' : '確認を取り消した');
  if (typeof reason === 'string' && reason) parts.push(`理由: ${reason}`);
  if (typeof resolution === 'string' && resolution)
    parts.push(`対応内容: ${resolution}`);
  return parts.join(' ／ ');
};
