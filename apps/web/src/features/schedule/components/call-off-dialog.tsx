import type { Schedule } from '@proam/contract';
import { ReasonDialog } from '@/components/form/reason-dialog';
import { formatDate } from '@/lib/format';
import { REASON_MAX, validateCallOff } from '../call-off-validation';
import { useCallOffScheduleMutation } from '../schedule-api';

type CallOffDialogProps = {
  /** The lesson being called off; null while the dialog is closed. */
  schedule: Schedule | null;
  onClose: () => void;
  onDone: (calledOff: Schedule) => void;
};

/**
 * 中止する: the pro (or an admin) gives the reason the participants are
 * mailed and see on their card.
 */
export const CallOffDialog = ({
  schedule,
  onClose,
  onDone,
}: CallOffDialogProps) => {
  const [callOff] = useCallOffScheduleMutation();
  return (
    <ReasonDialog
      target={schedule}
      title="レッスンの中止"
      message={
        schedule
          ? `${formatDate(schedule.date)} ${schedule.startTime}〜 ${schedule.place}のレッスンを中止します。参加者には中止の理由がメールで届き、カードにも表示されます。`
          : ''
      }
      confirmLabel="中止する"
      field={{
        label: '中止の理由',
        serverName: 'reason',
        max: REASON_MAX,
        placeholder: '雨天のため',
        hint: '参加者にそのまま表示されます。',
        validate: validateCallOff,
        refused: '中止の理由をご確認ください。',
      }}
      send={(s, reason) => callOff({ id: s.id, reason })}
      failures={{
        Conflict:
          'このレッスンはすでに開始したか、中止・終了しているため中止できません。',
      }}
      failure="中止できませんでした。時間をおいて再度お試しください。"
      onDone={onDone}
      onClose={onClose}
    />
  );
};
