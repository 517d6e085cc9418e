type StepIndicatorProps = { steps: readonly string[]; current: number };

/** Where the person is in a multi-step form; `current` counts from 1. */
export const StepIndicator = ({ steps, current }: StepIndicatorProps) => (
  <ol className="form-steps" aria-label="手続きの流れ">
    {steps.map((label, i) => {
      const n = i + 1;
      const state = n < current ? 'done' : n === current ? 'current' : 'todo';
      return (
        <li
          key={label}
          className={`form-steps__item form-steps__item--${state}`}
          aria-current={n === current ? 'step' : undefined}
        >
          <span className="form-steps__number" aria-hidden="true">
            {n}
          </span>
          <span className="form-steps__label">
            <span className="visually-hidden">ステップ{n}：</span>
            {label}
            {state === 'done' && (
              <span className="visually-hidden">（完了）</span>
            )}
          </span>
        </li>
      );
    })}
  </ol>
);
