import { HeartIcon } from '@/components/icons';

type LikeButtonProps = {
  name: string;
  liked: boolean;
  onToggle: () => void;
  disabled?: boolean;
  large?: boolean;
};

/** A toggle (aria-pressed) that likes or unlikes a member. */
export const LikeButton = ({
  name,
  liked,
  onToggle,
  disabled,
  large,
}: LikeButtonProps) => (
  <button
    type="button"
    className={`like-button${liked ? ' is-liked' : ''}${large ? ' like-button--large' : ''}`}
    aria-pressed={liked}
    aria-label={`${name}さんにいいね`}
    disabled={disabled}
    onClick={onToggle}
  >
    <HeartIcon width={20} height={20} fill={liked ? 'currentColor' : 'none'} />
    <span aria-hidden="true">{liked ? 'いいね済み' : 'いいね'}</span>
  </button>
);
