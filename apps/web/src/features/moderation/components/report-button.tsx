import { useEffect, useRef, useState } from 'react';
import { ReportDialog, type ReportTarget } from './report-dialog';

type ReportButtonProps = ReportTarget & {
  /** e.g. 「山田 太郎さんの口コミ」: names the button and the dialog. */
  targetLabel: string;
  className?: string;
};

/** 通報する, its dialog, and the thank-you once it is sent. */
export const ReportButton = ({
  targetType,
  targetId,
  targetLabel,
  className = 'button button--text report-button',
}: ReportButtonProps) => {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  // A fresh dialog (and form) for each opening.
  const [dialogKey, setDialogKey] = useState(0);
  const noticeRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (sent) noticeRef.current?.focus();
  }, [sent]);
  return (
    <>
      {sent ? (
        <span
          ref={noticeRef}
          tabIndex={-1}
          role="status"
          className="report-button__sent"
        >
          通報を受け付けました
        </span>
      ) : (
        <button
          type="button"
          className={className}
          aria-label={`${targetLabel}を通報する`}
          onClick={() => {
            setDialogKey((k) => k + 1);
            setOpen(true);
          }}
        >
          通報する
        </button>
      )}
      <ReportDialog
        key={dialogKey}
        target={open ? { targetType, targetId } : null}
        targetLabel={targetLabel}
        onClose={() => setOpen(false)}
        onDone={() => {
          setOpen(false);
          setSent(true);
        }}
      />
    </>
  );
};
