import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { textLength } from '@/lib/contract-limits';
import {
  canSend,
  composerKeyAction,
  COUNTER_FROM,
  MESSAGE_MAX,
} from '../composer-keys';
import { usePhysicalKeyboard } from '../use-physical-keyboard';

type ComposerProps = {
  /** Resolves true when the message was stored; false keeps it in the box. */
  onSend: (text: string) => Promise<boolean>;
};

/**
 * The message box: Enter sends, Shift+Enter breaks the line, Enter while an
 * IME is composing never sends. A failed message stays, with 再送信. The
 * Shift+Enter hint shows only where a physical keyboard is likely (a phone
 * has no Shift key); the keys work the same everywhere.
 */
export const Composer = ({ onSend }: ComposerProps) => {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  const errorId = useId();
  const keyboard = usePhysicalKeyboard();

  const send = async () => {
    if (sending || !canSend(text)) return;
    setSending(true);
    setFailed(false);
    const ok = await onSend(text);
    setSending(false);
    if (ok) setText('');
    else setFailed(true);
    boxRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = composerKeyAction({
      key: event.key,
      shiftKey: event.shiftKey,
      isComposing: event.nativeEvent.isComposing,
      keyCode: event.keyCode || event.nativeEvent.keyCode,
    });
    if (action === 'send') {
      event.preventDefault();
      void send();
    }
  };

  const length = textLength(text);
  const showCounter = length >= COUNTER_FROM;
  const over = length > MESSAGE_MAX;
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {failed && (
        <div className="composer__failed" id={errorId} role="alert">
          <span>送信できませんでした。</span>
          <button
            type="submit"
            className="button button--outline composer__retry"
            disabled={sending || !canSend(text)}
          >
            再送信
          </button>
        </div>
      )}
      <div className="composer__row">
        <label className="visually-hidden" htmlFor="composer-box">
          メッセージ
        </label>
        <textarea
          id="composer-box"
          ref={boxRef}
          className="composer__box"
          rows={1}
          value={text}
          placeholder={
            keyboard
              ? 'メッセージを入力（Shift+Enterで改行）'
              : 'メッセージを入力'
          }
          aria-invalid={over ? true : undefined}
          aria-describedby={
            [showCounter && counterId, failed && errorId]
              .filter(Boolean)
              .join(' ') || undefined
          }
          enterKeyHint="send"
          onChange={(e) => {
            setText(e.target.value);
            if (failed) setFailed(false);
          }}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className="button button--primary composer__send"
          disabled={sending || !canSend(text)}
        >
          送信
        </button>
      </div>
      {showCounter && (
        <p
          id={counterId}
          className={`composer__counter${over ? ' is-over' : ''}`}
          aria-live="polite"
        >
          {length}/{MESSAGE_MAX}
          {over && '（2000文字以内で入力してください）'}
        </p>
      )}
    </form>
  );
};
