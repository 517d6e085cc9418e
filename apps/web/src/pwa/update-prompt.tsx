import { useEffect, useState } from 'react';
import { onUpdateAvailable, type ApplyUpdate } from './update-events';

/** 新しいバージョン: shown when a new service worker is waiting. */
export const UpdatePrompt = () => {
  const [apply, setApply] = useState<ApplyUpdate | null>(null);
  useEffect(() => onUpdateAvailable((a) => setApply(() => a)), []);
  if (!apply) return null;
  return (
    <div className="update-prompt" role="status">
      <p className="update-prompt__text">
        新しいバージョンがあります。更新すると最新の内容でご利用いただけます。
      </p>
      <div className="update-prompt__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => void apply()}
        >
          更新する
        </button>
        <button
          type="button"
          className="button button--outline"
          onClick={() => setApply(null)}
        >
          後で
        </button>
      </div>
    </div>
  );
};
