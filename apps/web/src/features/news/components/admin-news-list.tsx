import type { News } from '@proam/contract';
import { SmallButton } from '@/components/small-button';
import { Badge } from '@/components/status-badge';
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
                  <Badge tone="scheduled">予約投稿</Badge>
                ) : (
                  <Badge tone="open">公開中</Badge>
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
              <SmallButton variant="outline" onClick={() => onEdit(n)}>
                編集
              </SmallButton>
              <SmallButton variant="outline-danger" onClick={() => onDelete(n)}>
                削除
              </SmallButton>
            </div>
          </li>
        );
      })}
    </ul>
  );
};
