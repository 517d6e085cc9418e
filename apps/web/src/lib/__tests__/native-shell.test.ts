import { describe, expect, it } from 'vitest';
import { backButtonAction } from '../native-shell';

describe('Android back button', () => {
  it('leaves the app only from the top page', () => {
    for (const hash of ['', '#', '#/'])
      expect(backButtonAction(hash)).toBe('exit');
  });

  it('goes back everywhere else', () => {
    for (const hash of [
      '#/promenu',
      '#/tabs/chat',
      '#/tabs/chat/01ABC',
      '#/auth',
    ])
      expect(backButtonAction(hash)).toBe('back');
  });
});
