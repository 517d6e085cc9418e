import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { SiteHeader } from '../site-header';

describe('site header', () => {
  it('links every public section, with the logo going to the top page', () => {
    renderWithProviders(<SiteHeader />);
    expect(
      screen.getByRole('link', { name: 'ProAm Connect トップページ' }),
    ).toHaveAttribute('href', '/');
    const nav = screen.getByRole('navigation', {
      name: 'メインメニュー',
      hidden: true,
    });
    for (const [name, href] of [
      ['プロ会員メニュー', '/promenu'],
      ['アマチュア会員メニュー', '/amateurmenu'],
      ['イベント日程・結果', '/event'],
      ['会社概要', '/about'],
      ['最新情報', '/info'],
      ['お問い合わせ', '/contact'],
    ] as const) {
      const link = [...nav.querySelectorAll('a')].find(
        (a) => a.textContent === name,
      );
      expect(link, name).toBeDefined();
      expect(link).toHaveAttribute('href', href);
    }
  });

  it('toggles the mobile menu with the メニュー button and closes it with Escape', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SiteHeader />);
    const toggle = screen.getByRole('button', { name: 'メニュー' });
    const navId = toggle.getAttribute('aria-controls');
    expect(navId).toBeTruthy();
    const nav = document.getElementById(navId ?? '');
    expect(nav).not.toBeNull();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(nav).not.toHaveClass('is-open');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(nav).toHaveClass('is-open');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('closes the menu when a link is followed', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SiteHeader />);
    const toggle = screen.getByRole('button', { name: 'メニュー' });
    await user.click(toggle);
    await user.click(screen.getByRole('link', { name: '会社概要' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
