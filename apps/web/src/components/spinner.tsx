import { useAppSelector } from '@/lib/store-hooks';
import { selectSpinnerVisible } from '@/lib/ui-slice';

type SpinnerProps = { label?: string; className?: string };

export const Spinner = ({ label = '読み込み中', className }: SpinnerProps) => (
  <span className={`spinner${className ? ` ${className}` : ''}`} role="status">
    <span className="spinner__circle" aria-hidden="true" />
    <span className="visually-hidden">{label}</span>
  </span>
);

/** The one app-wide spinner: shown once however many calls are in flight. */
export const GlobalSpinner = () => {
  const visible = useAppSelector(selectSpinnerVisible);
  if (!visible) return null;
  return (
    <div className="global-spinner" data-testid="global-spinner">
      <Spinner label="通信中" />
    </div>
  );
};
