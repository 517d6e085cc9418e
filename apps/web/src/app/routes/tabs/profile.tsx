import { PageHeader } from '@/components/page-header';
import { AccountPanel } from '@/features/auth/components/account-panel';
import { useDocumentTitle } from '@/hooks/use-document-title';

const ProfileRoute = () => {
  useDocumentTitle('プロフィール');
  return (
    <>
      <PageHeader
        section="会員メニュー"
        title="プロフィール"
        titleRight="PROFILE"
      />
      <div className="container section">
        <AccountPanel />
        <div className="notice-card">
          <p className="notice-card__lead">
            プロフィールの編集は現在準備中です
          </p>
          <p>
            氏名・ふりがな・地域・自己紹介などの編集や、写真の登録（最大6枚）ができる機能を準備しています。公開まで今しばらくお待ちください。
          </p>
        </div>
      </div>
    </>
  );
};

export default ProfileRoute;
