type LogoProps = { className?: string; inverted?: boolean };

/** The wordmark; the text stays real text so it scales and reads out as "ProAm Connect". */
export const Logo = ({ className, inverted = false }: LogoProps) => (
  <span
    className={`logo${inverted ? ' logo--inverted' : ''}${className ? ` ${className}` : ''}`}
  >
    <svg
      className="logo__mark"
      viewBox="0 0 64 64"
      width="36"
      height="36"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="32" cy="32" r="30" className="logo__disc" />
      <path
        d="M27 14v34"
        className="logo__pole"
        strokeWidth="3"
        strokeLinecap="round"
      />
      <path d="M28 15l15 6-15 6z" className="logo__flag" />
      <ellipse cx="32" cy="49" rx="14" ry="3.5" className="logo__green" />
      <circle cx="38" cy="44" r="3.2" className="logo__ball" />
    </svg>
    <span className="logo__text">
      <span className="logo__pro">ProAm</span>{' '}
      <span className="logo__connect">Connect</span>
    </span>
  </span>
);
