import { Link } from 'react-router';
import { runtimeConfig } from '@/config/env';
import { useClientValue } from '@/hooks/use-client-value';
import { MailIcon } from './icons';
import { HomeLink } from './home-link';
import { NAV_LINKS } from './nav-links';

/** The legal pages, on every page's footer. */
const LEGAL_LINKS = [
  { to: '/terms', label: '利用規約' },
  { to: '/privacy', label: 'プライバシーポリシー' },
  { to: '/tokushoho', label: '特定商取引法に基づく表記' },
] as const;

const copyright = () =>
  `© ${new Date().getFullYear()} ${runtimeConfig.companyName}`;

export const SiteFooter = () => {
  // The year and the company name come from the browser and the server, not
  // the build, so the prerendered landing page leaves the line empty.
  const line = useClientValue(copyright, '');
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__brand">
          <HomeLink className="site-footer__logo" inverted />
          <p className="site-footer__tagline">
            プロゴルファーとアマチュアゴルファーをつなぐ、ラウンドレッスンのマッチングサービス。
          </p>
          <Link
            to="/contact"
            className="button button--light site-footer__contact"
          >
            <MailIcon width={18} height={18} />
            Webからのお問い合わせ
          </Link>
        </div>
        <nav className="site-footer__nav" aria-label="フッターメニュー">
          <ul>
            {NAV_LINKS.map((item) => (
              <li key={item.to}>
                <Link to={item.to}>{item.label}</Link>
              </li>
            ))}
            <li>
              <Link to="/qa">よくある質問</Link>
            </li>
          </ul>
        </nav>
      </div>
      <nav className="site-footer__legal" aria-label="規約・法的表記">
        <ul className="container">
          {LEGAL_LINKS.map((item) => (
            <li key={item.to}>
              <Link to={item.to}>{item.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="site-footer__copy">
        <small>{line}</small>
      </p>
    </footer>
  );
};
