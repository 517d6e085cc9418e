import type { ReactNode } from 'react';
import { Link } from 'react-router';

type AdminListBarProps = {
  /** What the list below shows, or who may change it. */
  label: ReactNode;
  /** The primary button, which opens the form for a new item. */
  createLabel: string;
  onCreate: () => void;
  /** The outlined link beside it (the public page, the admin screen). */
  link: { to: string; label: string };
};

/** The bar above a list admins manage: what it is, 作成, and where else to look. */
export const AdminListBar = ({
  label,
  createLabel,
  onCreate,
  link,
}: AdminListBarProps) => (
  <div className="admin-bar">
    <p className="admin-bar__label">{label}</p>
    <div className="admin-bar__buttons">
      <button
        type="button"
        className="button button--primary"
        onClick={onCreate}
      >
        {createLabel}
      </button>
      <Link to={link.to} className="button button--outline">
        {link.label}
      </Link>
    </div>
  </div>
);
