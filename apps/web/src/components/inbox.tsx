import type { ReactNode } from 'react';
import { formatInstantDateTime } from '@/lib/format';
import { FlashStatus } from './flash-status';
import { Segmented, type SegmentedProps } from './form/segmented';
import { Badge } from './status-badge';

type InboxProps<F extends string> = {
  /** The 未対応/対応済み choice. */
  filter: SegmentedProps<F>;
  /** What the last action did. */
  status: string;
  /** The list, with its loading, error and empty states. */
  children: ReactNode;
};

/** An admin inbox (お問い合わせ, 通報): the filter, the last action's status, then the list. */
export const Inbox = <F extends string>({
  filter,
  status,
  children,
}: InboxProps<F>) => (
  <div className="stack">
    <Segmented {...filter} />
    <FlashStatus message={status} />
    {children}
  </div>
);

type InboxItemProps = {
  /** The heading's id, which names the item. */
  headingId: string;
  handled: boolean;
  createdAt: string;
  /** Between the 対応済み/未対応 badge and the time. */
  tags?: ReactNode;
  title: ReactNode;
  /** Who sent it: label and value pairs. */
  contact: { label: string; value: ReactNode }[];
  /** What was sent. */
  children: ReactNode;
  /** The buttons under it, if any. */
  actions?: ReactNode;
};

/** One message of an admin inbox (お問い合わせ, 通報), as an `<li>` of `.inbox`. */
export const InboxItem = ({
  headingId,
  handled,
  createdAt,
  tags,
  title,
  contact,
  children,
  actions,
}: InboxItemProps) => (
  <li className={`inbox__item${handled ? ' is-handled' : ''}`}>
    <article aria-labelledby={headingId}>
      <header className="inbox__head">
        <p className="inbox__meta">
          <Badge tone={handled ? 'finished' : 'closed'}>
            {handled ? '対応済み' : '未対応'}
          </Badge>
          {tags}
          <time dateTime={createdAt}>{formatInstantDateTime(createdAt)}</time>
        </p>
        <h3 id={headingId} className="inbox__name">
          {title}
        </h3>
        <dl className="inbox__contact">
          {contact.map((c) => (
            <div key={c.label}>
              <dt>{c.label}</dt>
              <dd>{c.value}</dd>
            </div>
          ))}
        </dl>
      </header>
      {children}
      {actions && <div className="inbox__actions">{actions}</div>}
    </article>
  </li>
);
