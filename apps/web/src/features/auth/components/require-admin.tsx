import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '@/lib/store-hooks';
import { NoticePage } from '@/components/notice-card';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { selectIsAdmin } from '../auth-slice';

export const useIsAdmin = (): boolean => useAppSelector(selectIsAdmin);

/** What a member who is not an admin sees at an admin-only address. */
export const Forbidden = () => {
  useDocumentTitle('権限がありません');
  return (
    <NoticePage
      section="会員メニュー"
      title="権限がありません"
      lead="このページを表示する権限がありません"
      text="管理画面は運営スタッフ（管理者アカウント）専用です。会員の方は下のボタンから会員メニューへお戻りください。"
      actions={
        <>
          <Link to="/tabs/competitions" className="button button--primary">
            大会ページへ戻る
          </Link>
          <Link to="/contact" className="button button--outline">
            お問い合わせ
          </Link>
        </>
      }
    />
  );
};

/**
 * Admin pages: everyone else gets 権限がありません. Sits inside the member
 * area, so the login itself is already checked by RequireLogin.
 */
export const RequireAdmin = ({ children }: { children: ReactNode }) =>
  useIsAdmin() ? children : <Forbidden />;
