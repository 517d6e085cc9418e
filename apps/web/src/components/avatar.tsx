import { mediaUrl } from '@/config/env';
type AvatarProps = {
  name: string;
  /** The main photo; without one the initial is shown. */
  url?: string;
  size?: 'small' | 'medium' | 'large';
  className?: string;
};

/** A round photo of a member, or their first character on a green disc. */
export const Avatar = ({
  name,
  url,
  size = 'medium',
  className,
}: AvatarProps) => {
  const classes = `avatar avatar--${size}${className ? ` ${className}` : ''}`;
  if (url)
    return (
      <img
        className={classes}
        src={mediaUrl(url)}
        alt={`${name}さんの写真`}
        loading="lazy"
        decoding="async"
      />
    );
  const initial = Array.from(name.trim())[0] ?? '？';
  return (
    <span
      className={`${classes} avatar--initial`}
      role="img"
      aria-label={`${name}さん（写真未登録）`}
    >
      {initial}
    </span>
  );
};
