import type { User } from '@proam/contract';
import { ReasonDialog } from '@/components/form/reason-dialog';
import { useSuspendMemberMutation } from '../admin-api';
import { SUSPEND_REASON_MAX, validateSuspend } from '../admin-validation';

type SuspendDialogProps = {
  /** The member to suspend or to lift the suspension of; null while closed. */
  member: User | null;
  onClose: () => void;
  onDone: (changed: User) => void;
};

/** 利用停止 with a required reason (kept in the audit log), or 停止を解除. */
export const SuspendDialog = ({
  member,
  onClose,
  onDone,
}: SuspendDialogProps) => {
  const [suspend] = useSuspendMemberMutation();
  const lifting = member?.suspended === true;
  const name = member ? `${member.userName}（${member.email ?? ''}）` : '';
  return (
    <ReasonDialog
      target={member}
      title={lifting ? '利用停止の解除' : '会員の利用停止'}
      message={
        lifting
          ? `${name}の利用停止を解除します。ログインできるようになり、プロフィールが再び表示されます。`
          : `${name}を利用停止にします。すぐにログインできなくなり、すべての端末でログアウトされ、プロフィールは他の会員に表示されなくなります。プロの場合、今後のレッスンは中止になります。`
      }
      confirmLabel={lifting ? '停止を解除する' : '利用停止にする'}
      danger={!lifting}
      {...(lifting
        ? {}
        : {
            field: {
              label: '利用停止の理由',
              serverName: 'reason',
              max: SUSPEND_REASON_MAX,
              placeholder: '利用規約第○条に違反する行為のため',
              hint: '会員一覧と操作履歴に記録されます。',
              validate: validateSuspend,
              refused: '利用停止の理由をご確認ください。',
            },
          })}
      send={(m, reason) =>
        suspend(
          lifting
            ? { id: m.id, suspended: false }
            : { id: m.id, suspended: true, reason },
        )
      }
      failures={{
        Conflict: 'ご自身のアカウントは利用停止にできません。',
        NotFound:
          'この会員は見つかりませんでした（退会した可能性があります）。',
      }}
      failure="変更できませんでした。通信状況をご確認のうえ、もう一度お試しください。"
      onDone={onDone}
      onClose={onClose}
    />
  );
};
