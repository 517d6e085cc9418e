import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { Composer } from '../components/composer';
import { composerKeyAction } from '../composer-keys';
import { PHYSICAL_KEYBOARD_QUERY } from '../use-physical-keyboard';

const key = (over: Partial<Parameters<typeof composerKeyAction>[0]>) =>
  composerKeyAction({
    key: 'Enter',
    shiftKey: false,
    isComposing: false,
    keyCode: 13,
    ...over,
  });

describe('composerKeyAction', () => {
  it('sends on Enter, breaks the line on Shift+Enter', () => {
    expect(key({})).toBe('send');
    expect(key({ shiftKey: true })).toBe('newline');
    expect(key({ key: 'a', keyCode: 65 })).toBeNull();
  });

  it('never sends while an IME is composing (isComposing or keyCode 229)', () => {
    expect(key({ isComposing: true })).toBeNull();
    expect(key({ keyCode: 229 })).toBeNull();
    expect(key({ keyCode: 229, shiftKey: true })).toBeNull();
  });
});

describe('Composer', () => {
  const setup = (
    onSend = vi.fn<(text: string) => Promise<boolean>>(async () => true),
  ) => {
    renderWithProviders(<Composer onSend={onSend} />);
    return {
      onSend,
      box: screen.getByRole('textbox', { name: 'メッセージ' }),
      send: screen.getByRole('button', { name: '送信' }),
    };
  };

  it('is disabled while empty and sends with Enter, clearing the box', async () => {
    const user = userEvent.setup();
    const { onSend, box, send } = setup();
    expect(send).toBeDisabled();
    await user.type(box, 'こんにちは');
    expect(send).toBeEnabled();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('こんにちは');
    await waitFor(() => expect(box).toHaveValue(''));
  });

  it('keeps Shift+Enter as a line break', async () => {
    const user = userEvent.setup();
    const { onSend, box } = setup();
    await user.type(box, '一行目{Shift>}{Enter}{/Shift}二行目');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('一行目\n二行目');
  });

  it('does not send on Enter during IME composition', () => {
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: 'にほんご' } });
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 13 });
    expect(onSend).toHaveBeenCalledWith('にほんご');
  });

  it('keeps a failed message in the box with 再送信, and retries it', async () => {
    const user = userEvent.setup();
    const onSend = vi
      .fn<(text: string) => Promise<boolean>>()
      .mockResolvedValueOnce(false)
      .mockResolvedValueOnce(true);
    const { box } = setup(onSend);
    await user.type(box, '届くかな{Enter}');
    const retry = await screen.findByRole('button', { name: '再送信' });
    expect(box).toHaveValue('届くかな');
    expect(screen.getByRole('alert')).toHaveTextContent(
      '送信できませんでした。',
    );
    await user.click(retry);
    await waitFor(() => expect(box).toHaveValue(''));
    expect(onSend).toHaveBeenCalledTimes(2);
  });

  it('shows the counter near the limit and blocks over 2000 characters', () => {
    const { box, send } = setup();
    fireEvent.change(box, { target: { value: 'あ'.repeat(1799) } });
    expect(screen.queryByText(/\/2000/)).toBeNull();
    fireEvent.change(box, { target: { value: 'あ'.repeat(1800) } });
    expect(screen.getByText('1800/2000')).toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'あ'.repeat(2001) } });
    expect(send).toBeDisabled();
    expect(box).toHaveAttribute('aria-invalid', 'true');
  });

  describe('the Shift+Enter hint', () => {
    /** A browser whose pointer answers PHYSICAL_KEYBOARD_QUERY with `matches`. */
    const pointer = (matches: boolean) => {
      const listeners = new Set<() => void>();
      const list = {
        get matches() {
          return matches;
        },
        media: PHYSICAL_KEYBOARD_QUERY,
        addEventListener: (_: string, l: () => void) => listeners.add(l),
        removeEventListener: (_: string, l: () => void) => listeners.delete(l),
      };
      const matchMedia = vi.fn((q: string) => {
        expect(q).toBe(PHYSICAL_KEYBOARD_QUERY);
        return list;
      });
      vi.stubGlobal('matchMedia', matchMedia);
      return {
        change: (next: boolean) => {
          matches = next;
          for (const l of listeners) l();
        },
      };
    };
    afterEach(() => vi.unstubAllGlobals());

    it('shows with a mouse or trackpad (a physical keyboard is likely)', () => {
      pointer(true);
      const { box } = setup();
      expect(box).toHaveAttribute(
        'placeholder',
        'メッセージを入力（Shift+Enterで改行）',
      );
    });

    it('is left out on a touch screen, where Shift+Enter still breaks the line', async () => {
      const device = pointer(false);
      const user = userEvent.setup();
      const { onSend, box } = setup();
      expect(box).toHaveAttribute('placeholder', 'メッセージを入力');
      await user.type(box, '一行目{Shift>}{Enter}{/Shift}二行目');
      expect(onSend).not.toHaveBeenCalled();
      expect(box).toHaveValue('一行目\n二行目');
      // A keyboard and a mouse attached: the hint follows.
      act(() => device.change(true));
      expect(box).toHaveAttribute(
        'placeholder',
        'メッセージを入力（Shift+Enterで改行）',
      );
    });

    it('is left out where the browser cannot tell', () => {
      vi.stubGlobal('matchMedia', undefined);
      const { box } = setup();
      expect(box).toHaveAttribute('placeholder', 'メッセージを入力');
    });
  });
});
