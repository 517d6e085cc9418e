import { QueryState } from '@/components/query-state';
import { formatInstantDateTime } from '@/lib/format';
import {
  auditActionLabel,
  auditDetailText,
  useGetAuditLogQuery,
} from '../audit-api';

/** 操作履歴: what admins changed, newest first. */
export const AuditLog = () => {
  const { data, isLoading, isError, isFetching, refetch } = useGetAuditLogQuery(
    { size: 100 },
    { refetchOnMountOrArgChange: true },
  );
  return (
    <QueryState
      query={{ isLoading, isError, isFetching, refetch }}
      loading="操作履歴を読み込み中"
      error="操作履歴を読み込めませんでした。"
      isEmpty={!data || data.length === 0}
      empty="操作履歴はまだありません。"
    >
      {() => (
        <div className="table-scroll">
          <table className="audit-table">
            <caption className="visually-hidden">操作履歴（新しい順）</caption>
            <thead>
              <tr>
                <th scope="col">日時</th>
                <th scope="col">操作</th>
                <th scope="col">対象ID</th>
                <th scope="col">内容</th>
              </tr>
            </thead>
            <tbody>
              {data?.map((e) => (
                <tr key={e.id}>
                  <td className="audit-table__at" data-label="日時">
                    <time dateTime={e.at}>{formatInstantDateTime(e.at)}</time>
                  </td>
                  <td className="audit-table__action" data-label="操作">
                    {auditActionLabel(e.action)}
                  </td>
                  <td className="audit-table__id" data-label="対象ID">
                    {e.targetId ?? '—'}
                  </td>
                  <td data-label="内容">{auditDetailText(e.detail) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryState>
  );
};
