import type { News } from '@proam/contract';
import { useNow } from '@/hooks/use-now';
import { formatInstantDateTime } from '@/lib/format';
import { isScheduled } from '../news-validation';

type AdminNewsListProps = {
  items: readonly News[];
  onEdit: (n: News) => void;
  onDelete: (n: News) => void;
};

/** Every news item for admins, with 公開中 / 予約投稿 badges. */
export const AdminNewsList = ({
  items,
  onEdit,
  onDelete,
}: AdminNewsListProps) => {
  const now = useNow();
  return (
    <ul className="admin-list">
      {items.map((n) => {
        const scheduled = isScheduled(n, now);
        return (
          <li key={n.id} className="admin-list__item">
            <div className="admin-list__main">
              <p className="admin-list__meta">
                {scheduled ? (
                  <span className="status-badge status-badge--scheduled">
                    予約投稿
                  </span>
                ) : (
                  <span className="status-badge status-badge--open">
                    公開中
                  </span>
                )}
                <time dateTime={n.publishedAt}>
                  {formatInstantDateTime(n.publishedAt)}
                  {scheduled && ' 公開予定'}
                </time>
                {n.category && <span className="tag">{n.category}</span>}
              </p>
              <p className="admin-list__title">{n.title}</p>
            </div>
            <div
              className="admin-actions"
              role="group"
              aria-label={`${n.title} の操作`}
            >
              <button
                type="button"
                className="button button--small button--outline"
                onClick={() => onEdit(n)}
              >
                編集
              </button>
              <button
                type="button"
                className="button button--small button--outline-danger"
                onClick={() => onDelete(n)}
              >
                削除
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
};
