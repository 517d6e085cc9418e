import type { ButtonHTMLAttributes } from 'react';

type SmallButtonProps = Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'className'
> & {
  variant: 'primary' | 'outline' | 'outline-danger';
};

/** A row action in an admin list or table (編集, 削除, 対応済みにする, …). */
export const SmallButton = ({ variant, ...rest }: SmallButtonProps) => (
  <button
    type="button"
    className={`button button--small button--${variant}`}
    {...rest}
  />
);
