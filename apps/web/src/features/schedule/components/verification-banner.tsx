import type { User } from '@proam/contract';

type VerificationBannerProps = {
  user: Pick<User, 'type' | 'pro'> | null | undefined;
};

/**
 * A pro the company has not checked yet (`pro.verified === false`): what
 * works meanwhile and what waits for the check (docs/api.md, Wave 2).
 */
export const VerificationBanner = ({ user }: VerificationBannerProps) => {
  if (user?.type !== 'pro' || user.pro?.verified !== false) return null;
  return (
    <section
      className="verification-banner"
      aria-labelledby="verification-title"
    >
      <h2 id="verification-title" className="verification-banner__title">
        運営による確認中です
      </h2>
      <p>
        プロ会員の登録内容を運営が確認しています。確認が終わるまでの間も、プロフィールの編集とラウンドレッスンの登録はできます。
      </p>
      <p>
        確認が終わるまで、レッスンは予約を受け付けず、プロ検索などの一覧にも表示されません。確認が終わるとメールでお知らせします。
      </p>
    </section>
  );
};
