import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import CampaignDetailsRoute from '../campaign-details';

const renderCampaign = (id: string) =>
  renderWithProviders(<CampaignDetailsRoute />, {
    route: `/campaignDetails/${id}`,
    path: '/campaignDetails/:id',
  });

const NO_MORE = '現在、これ以上の情報はございません。';

describe('campaign details', () => {
  it('shows the banner of campaign 1 with Japanese alt text', () => {
    renderCampaign('1');
    const img = screen.getByRole('img', {
      name: /はじめてのラウンドレッスン応援キャンペーン/,
    });
    expect(img).toHaveAttribute('src');
    expect(screen.queryByText(NO_MORE)).not.toBeInTheDocument();
  });

  it.each(['2', '999', 'abc'])(
    'shows the no-more-information message for id %s',
    (id) => {
      renderCampaign(id);
      expect(screen.getByText(NO_MORE)).toBeInTheDocument();
      expect(screen.queryByRole('img')).not.toBeInTheDocument();
    },
  );

  it('has the breadcrumb トップページ / キャンペーン詳細 and no title block', () => {
    const { container } = renderCampaign('2');
    const crumbs = screen.getByRole('navigation', { name: 'パンくずリスト' });
    const items = crumbs.querySelectorAll('li');
    expect([...items].map((li) => li.textContent)).toEqual([
      'トップページ',
      'キャンペーン詳細',
    ]);
    expect(container.querySelector('.title-block')).toBeNull();
    expect(document.title).toBe('キャンペーン詳細 | ProAm Connect');
  });
});
