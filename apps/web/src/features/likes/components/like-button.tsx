import { HeartIcon } from '@/components/icons';

type LikeButtonProps = {
  name: string;
  liked: boolean;
  onToggle: () => void;
  disabled?: boolean;
  large?: boolean;
};

/**
 * A toggle (aria-pressed) that likes or unlikes a member. Its name starts
 * with the visible いいね (WCAG 2.5.3, so voice control users can say it),
 * names the member in brackets and stays the same in both states; the
 * pressed state is aria-pressed, and on screen the filled heart and button.
 */
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
    aria-label={`いいね（${name}さん）`}
    disabled={disabled}
    onClick={onToggle}
  >
    <HeartIcon width={20} height={20} fill={liked ? 'currentColor' : 'none'} />
    いいね
  </button>
);
