import { mediaUrl } from '@/config/env';
import type { User } from '@proam/contract';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/avatar';
import { CalendarIcon, HeartIcon } from '@/components/icons';
import { lessonFeeLabel } from '@/lib/payment-mode';
import { LikeButton } from './like-button';

type GalleryProps = { user: User };

/** The main photo large, the others as thumbnails that swap into it. */
const Gallery = ({ user }: GalleryProps) => {
  const [index, setIndex] = useState(0);
  const photos = user.imageInfo;
  const current = photos[index] ?? photos[0];
  if (!current)
    return (
      <div className="pro-gallery pro-gallery--empty">
        <Avatar name={user.userName} size="large" />
      </div>
    );
  return (
    <div className="pro-gallery">
      <img
        className="pro-gallery__main"
        src={mediaUrl(current.url)}
        alt={`${user.userName}さんの写真 ${index + 1}枚目`}
      />
      {photos.length > 1 && (
        <ul className="pro-gallery__thumbs" aria-label="写真一覧">
          {photos.map((p, i) => (
            <li key={p.keyName}>
              <button
                type="button"
                className="pro-gallery__thumb"
                aria-pressed={i === index}
                aria-label={`${i + 1}枚目の写真を表示`}
                onClick={() => setIndex(i)}
              >
                <img src={mediaUrl(p.url)} alt="" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};

type ProProfileProps = {
  user: User;
  liked: boolean;
  canLike: boolean;
  onToggle: () => void;
  /** Under the name: the ★ average and the count of reviews. */
  rating?: ReactNode;
  /** After the introduction: the reviews. */
  children?: ReactNode;
  /** At the end: 通報する, ブロックする. */
  safety?: ReactNode;
};

/** A pro's public profile with the like toggle and the way to their lessons. */
export const ProProfile = ({
  user,
  liked,
  canLike,
  onToggle,
  rating,
  children,
  safety,
}: ProProfileProps) => {
  const pro: Partial<NonNullable<User['pro']>> = user.pro ?? {};
  const facts: [string, string | undefined][] = [
    ['地域', user.area],
    ['所属', pro.affiliation],
    [
      'レッスン料金',
      pro.lessonFee === undefined ? undefined : lessonFeeLabel(pro.lessonFee),
    ],
    ['ホームコース', pro.homeCourse],
    ['得意分野', pro.specialty],
  ];
  return (
    <article className="pro-profile">
      <Gallery user={user} />
      <div className="pro-profile__body">
        <header className="pro-profile__head">
          <p className="pro-profile__kana">{user.nameKana}</p>
          <h2 className="pro-profile__name">
            {user.userName}
            <span className="tag pro-profile__tag">プロ</span>
          </h2>
          <div className="pro-profile__likes">
            <span className="pro-profile__count">
              <HeartIcon width={18} height={18} fill="currentColor" />
              いいね <strong data-testid="like-count">{user.likeCount}</strong>
            </span>
            {canLike && (
              <LikeButton
                name={user.userName}
                liked={liked}
                onToggle={onToggle}
                large
              />
            )}
          </div>
          {rating}
        </header>
        <dl className="pro-profile__facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value || '未登録'}</dd>
            </div>
          ))}
        </dl>
        <Link
          to={`/tabs/schedule/pro/${encodeURIComponent(user.id)}`}
          className="button button--primary button--large pro-profile__lessons"
        >
          <CalendarIcon />
          このプロのラウンドレッスンを見る
        </Link>
        <section className="pro-profile__text">
          <h3>経歴</h3>
          <p>{pro.career || '未登録'}</p>
        </section>
        <section className="pro-profile__text">
          <h3>自己紹介</h3>
          <p>{user.bio || '未登録'}</p>
        </section>
        {children}
        {safety && <div className="pro-profile__safety">{safety}</div>}
      </div>
    </article>
  );
};
