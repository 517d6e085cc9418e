import type { AuditEntry } from '@proam/contract';
import { NextPage } from '@/components/infinite-query-list';
import { QueryState } from '@/components/query-state';
import { useGetLessonMembersQuery } from '@/features/schedule/schedule-api';
import { formatInstantDateTime } from '@/lib/format';
import {
  auditActionLabel,
  auditDetailText,
  useGetAuditLogInfiniteQuery,
} from '../audit-api';

/** /user/getByIdList takes 100 ids at most; the actors are the admins, far fewer. */
const MAX_ACTORS = 100;

/** The admins who made `entries`, each once, in order of appearance. */
const actorIdsOf = (entries: readonly AuditEntry[]): string[] =>
  [...new Set(entries.map((e) => e.actorId))].slice(0, MAX_ACTORS);

/** 操作履歴: what admins changed and who did, newest first, a page at a time. */
export const AuditLog = () => {
  const query = useGetAuditLogInfiniteQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const entries = query.data?.pages.flat() ?? [];
  const actorIds = actorIdsOf(entries);
  const actors = useGetLessonMembersQuery(actorIds, {
    skip: actorIds.length === 0,
  });
  // An actor not (yet) known by name, or since deleted, is shown by id.
  const actorName = (id: string) =>
    actors.data?.find((u) => u.id === id)?.userName ?? id;

  return (
    <QueryState
      query={query}
      loading="操作履歴を読み込み中"
      error="操作履歴を読み込めませんでした。"
      isEmpty={entries.length === 0}
      empty="操作履歴はまだありません。"
    >
      {() => (
        <>
          <div className="table-scroll">
            <table className="audit-table">
              <caption className="visually-hidden">
                操作履歴（新しい順）
              </caption>
              <thead>
                <tr>
                  <th scope="col">日時</th>
                  <th scope="col">実行者</th>
                  <th scope="col">操作</th>
                  <th scope="col">対象ID</th>
                  <th scope="col">内容</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td className="audit-table__at" data-label="日時">
                      <time dateTime={e.at}>{formatInstantDateTime(e.at)}</time>
                    </td>
                    <td data-label="実行者">{actorName(e.actorId)}</td>
                    <td className="audit-table__action" data-label="操作">
                      {auditActionLabel(e.action)}
                    </td>
                    <td className="audit-table__id" data-label="対象ID">
                      {e.targetId ?? '—'}
                    </td>
                    <td data-label="内容">
                      {auditDetailText(e.detail) || '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <NextPage query={query} />
        </>
      )}
    </QueryState>
  );
};
