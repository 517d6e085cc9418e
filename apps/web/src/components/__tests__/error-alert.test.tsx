import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { errorAlertRaised } from '@/lib/ui-slice';
import { apiError } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ErrorAlert } from '../error-alert';

describe('error alert', () => {
  it('shows エラー, the code and the message, and OK dismisses it', async () => {
    const user = userEvent.setup();
    const { store } = renderWithProviders(<ErrorAlert />);
    act(() => {
      store.dispatch(errorAlertRaised(apiError('NotFound')));
    });
    const dialog = screen.getByRole('alertdialog', { name: 'エラー' });
    expect(dialog).toHaveAccessibleDescription(
      '対象のデータが見つかりません。',
    );
    expect(screen.getByText('NotFound')).toBeInTheDocument();
    const ok = screen.getByRole('button', { name: 'OK' });
    expect(ok).toHaveFocus();
    await user.click(ok);
    expect(store.getState().ui.alerts).toHaveLength(0);
    expect(
      screen.queryByRole('button', { name: 'OK' }),
    ).not.toBeInTheDocument();
  });
});
