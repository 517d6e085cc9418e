import { screen, within } from '@testing-library/react';
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

  it('states the conditions of campaign 1 in text, promising no discount no booking gives', () => {
    renderCampaign('1');
    const table = screen.getByRole('table', { name: 'キャンペーンの内容' });
    const row = (label: string) =>
      within(table).getByRole('rowheader', { name: label }).parentElement!;
    expect(row('会員登録')).toHaveTextContent('無料');
    expect(row('キャンセル')).toHaveTextContent(
      'レッスン前日の23時59分（日本時間）まで',
    );
    expect(row('キャンセル')).toHaveTextContent(
      'レッスン当日以降はキャンセルできません',
    );
    expect(row('レッスン料')).toHaveTextContent('割引はありません');
    // Neither the text nor the banner's alt text offers a discount.
    const img = screen.getByRole('img');
    for (const text of [document.body.textContent, img.getAttribute('alt')])
      expect(text).not.toMatch(/%|％|オフ|OFF|割引(?!はありません)/);
    expect(
      screen.getByRole('link', { name: '無料で会員登録' }),
    ).toHaveAttribute('href', '/auth/register');
  });

  it.each(['2', '999', 'abc'])(
    'shows the no-more-information message for id %s',
    (id) => {
      renderCampaign(id);
      expect(screen.getByText(NO_MORE)).toBeInTheDocument();
      expect(screen.queryByRole('img')).not.toBeInTheDocument();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
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
