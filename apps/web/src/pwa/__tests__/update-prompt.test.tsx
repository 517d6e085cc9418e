import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { announceUpdate } from '../update-events';
import { UpdatePrompt } from '../update-prompt';

describe('update prompt', () => {
  it('stays hidden until a new version waits, then applies it on 更新する', async () => {
    const user = userEvent.setup();
    render(<UpdatePrompt />);
    expect(screen.queryByRole('status')).toBeNull();
    const apply = vi.fn(async () => undefined);
    act(() => announceUpdate(apply));
    expect(screen.getByRole('status')).toHaveTextContent('新しいバージョン');
    await user.click(screen.getByRole('button', { name: '更新する' }));
    expect(apply).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: '後で' }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
