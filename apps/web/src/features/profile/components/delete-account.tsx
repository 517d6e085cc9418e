import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/lib/store-hooks';
import { MemberSection } from '@/components/member-section';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PasswordField } from '@/components/form/field';
import { loggedOut } from '@/features/auth/auth-slice';
import { useDeleteAccountMutation } from '../profile-api';

type DeleteAccountProps = { email: string };

/**
 * 退会する: asks for the password in a dialog, deletes the account with
 * `/auth/delete`, ends the session and goes to the top page.
 */
export const DeleteAccount = ({ email }: DeleteAccountProps) => {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const close = () => {
    setOpen(false);
    setPassword('');
    setError(undefined);
  };

  const confirm = async () => {
    if (!password) {
      setError('パスワードを入力してください。');
      document.getElementById(`${id}-password`)?.focus();
      return;
    }
    const result = await deleteAccount({ email, password });
    if ('data' in result && result.data) {
      // Leave the member area first, so the login guard does not send us to #/auth.
      await navigate('/', { replace: true });
      dispatch(loggedOut());
      return;
    }
    setError('退会できませんでした。パスワードをご確認ください。');
  };

  return (
    <MemberSection id={`${id}-title`} className="danger-zone" title="退会">
      <p>
        退会すると、プロフィール・写真・いいね・予約がすべて削除され、元に戻せません。チャットのメッセージは「退会したユーザー」として残ります。
      </p>
      <button
        type="button"
        className="button button--danger-outline"
        onClick={() => setOpen(true)}
      >
        退会する
      </button>
      <ConfirmDialog
        open={open}
        title="退会の確認"
        confirmLabel={isLoading ? '退会処理中…' : '退会する'}
        danger
        busy={isLoading}
        onConfirm={() => void confirm()}
        onCancel={close}
      >
        <p>
          本当に退会しますか？確認のため、ログインに使っているパスワードを入力してください。
        </p>
        <PasswordField
          id={`${id}-password`}
          name="password"
          label="パスワード"
          required
          autoComplete="current-password"
          value={password}
          error={error}
          onChange={(e) => {
            setPassword(e.target.value);
            setError(undefined);
          }}
        />
      </ConfirmDialog>
    </MemberSection>
  );
};
