import { useAppDispatch, useAppSelector } from '@/lib/store-hooks';
import { UserIcon } from '@/components/icons';
import { useLogoutMutation } from '../auth-api';
import { loggedOut, selectAuthUser, type SessionUser } from '../auth-slice';
import { BusyButton } from '@/components/form/form-actions';

const TYPE_LABELS: Record<SessionUser['type'], string> = {
  pro: 'プロ会員',
  amature: 'アマチュア会員',
  admin: '管理者',
  BUYER: '法人購買ユーザー',
};

/** Who is logged in, and the way out. */
export const AccountPanel = () => {
  const user = useAppSelector(selectAuthUser);
  const dispatch = useAppDispatch();
  const [logout, { isLoading }] = useLogoutMutation();

  const onLogout = async () => {
    // Ends the login on the server; locally it ends whatever the answer.
    await logout();
    dispatch(loggedOut());
  };

  if (!user) return null;
  return (
    <section className="account-panel" aria-labelledby="account-panel-title">
      <div className="account-panel__avatar" aria-hidden="true">
        <UserIcon width={32} height={32} />
      </div>
      <div className="account-panel__body">
        <h2 id="account-panel-title" className="account-panel__name">
          {user.userName}
          <span className="visually-hidden">さん</span>
        </h2>
        <p className="account-panel__type">
          <span className="tag">{TYPE_LABELS[user.type]}</span>
        </p>
      </div>
      <BusyButton
        className="button button--outline account-panel__logout"
        busy={isLoading}
        busyLabel="ログアウト中…"
        label="ログアウト"
        onClick={() => void onLogout()}
      />
    </section>
  );
};
