import { CONTACT_CATEGORIES } from '@proam/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCompetition } from '@/testing/factories';
import { renderWithProviders } from '@/testing/render';
import { ENTRY_CONTACT_CATEGORY } from '../competition-status';
import { CompetitionCard } from '../components/competition-card';

describe('competition card', () => {
  it('tells how to enter a competition that takes entries: through the contact form', () => {
    renderWithProviders(
      <CompetitionCard competition={createCompetition({ status: 'open' })} />,
    );
    expect(screen.getByText('エントリー受付中')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'お問い合わせフォーム' }),
    ).toHaveAttribute('href', '/contact');
    expect(document.body).toHaveTextContent(
      'エントリーはお問い合わせフォームで受け付けています。お問い合わせ種別「大会・イベントについて」を選び、大会名を添えてお申し込みください。',
    );
  });

  it.each(['closed', 'finished'] as const)(
    'says nothing of entering when the competition is %s',
    (status) => {
      renderWithProviders(
        <CompetitionCard competition={createCompetition({ status })} />,
      );
      expect(screen.queryByRole('link')).toBeNull();
      expect(document.body).not.toHaveTextContent('お申し込みください');
    },
  );

  it('names a category the contact form offers', () => {
    expect(CONTACT_CATEGORIES).toContain(ENTRY_CONTACT_CATEGORY);
  });

  it('writes the entry fee as the app writes yen (5,000円), and 無料 for none', () => {
    const { unmount } = renderWithProviders(
      <CompetitionCard competition={createCompetition({ entryFee: 5000 })} />,
    );
    expect(document.body).toHaveTextContent('参加費5,000円');
    unmount();
    renderWithProviders(
      <CompetitionCard competition={createCompetition({ entryFee: 0 })} />,
    );
    expect(document.body).toHaveTextContent('参加費無料');
  });
});
