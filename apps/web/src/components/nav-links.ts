export type NavLinkItem = {
  to: string;
  label: string;
  variant?: 'share' | 'contact';
};

/** The public site's sections, shared by the header and the footer. */
export const NAV_LINKS: readonly NavLinkItem[] = [
  { to: '/promenu', label: 'プロ会員メニュー' },
  { to: '/amateurmenu', label: 'アマチュア会員メニュー' },
  { to: '/event', label: 'イベント日程・結果' },
  { to: '/about', label: '会社概要' },
  { to: '/info', label: '最新情報', variant: 'share' },
  { to: '/contact', label: 'お問い合わせ', variant: 'contact' },
];
