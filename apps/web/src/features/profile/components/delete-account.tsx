import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/lib/store-hooks';
import { MemberSection } from '@/components/member-section';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PasswordField } from '@/components/form/field';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { loggedOut } from '@/features/auth/auth-slice';
import { apiErrorOf } from '@/lib/server-errors';
import { useDeleteAccountMutation } from '../profile-api';

type DeleteAccountProps = { email: string };

/**
 * Why the server kept the account (409 Conflict, only ever a pro's): a lesson
 * to come that someone booked or waits for, or a lesson paid online (whose
 * records must stay; an admin closes such an account). One code for both, so
 * one message names both and what to do about each.
 */
const KEPT_FOR_LESSONS =
  '予約の入っている今後のレッスン、またはオンライン決済のあったレッスンがあるため、退会できません。今後のレッスンを中止してから、もう一度お試しください。オンライン決済のあったレッスンがある場合は、お問い合わせからご連絡ください。';

/**
 * 退会する: asks for the password in a dialog, deletes the account with
 * `/auth/delete`, ends the session and goes to the top page. A refusal is
 * explained in the dialog, and the password typed stays.
 */
export const DeleteAccount = ({ email }: DeleteAccountProps) => {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  /** A refusal that is not about the password (shown above the field). */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const close = () => {
    setOpen(false);
    setPassword('');
    setError(undefined);
    setRefusal(null);
  };

  const confirm = async () => {
    if (!password) {
      setError('パスワードを入力してください。');
      document.getElementById(`${id}-password`)?.focus();
      return;
    }
    setRefusal(null);
    const result = await deleteAccount({ email, password });
    if ('data' in result && result.data) {
      // Leave the member area first, so the login guard does not send us to #/auth.
      await navigate('/', { replace: true });
      dispatch(loggedOut());
      return;
    }
    const failure = apiErrorOf(result);
    if (failure?.code === 'Conflict') setRefusal(KEPT_FOR_LESSONS);
    else if (
      failure?.code === 'InvalidCredentials' ||
      failure?.code === 'ValidationError'
    )
      setError('退会できませんでした。パスワードをご確認ください。');
    // The password was not the matter (too many tries, the network…).
    else
      setRefusal(
        `退会できませんでした。${failure?.msg ?? '時間をおいて再度お試しください。'}`,
      );
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
        <FormErrorSummary errorCount={0} serverError={refusal} />
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
