import type { ReactNode } from 'react';
import { HydrationGate } from '@/components/hydration-gate';
import { PageHeader } from '@/components/page-header';

type AuthPageProps = {
  /** The breadcrumb's section and the heading. */
  title: string;
  titleRight: string;
  description: string;
  /** The form, and what goes under it in the card. */
  children: ReactNode;
};

/** The login, registration and password reset pages: their header, then the form's card. */
export const AuthPage = ({ children, ...header }: AuthPageProps) => (
  <>
    <PageHeader section={header.title} {...header} />
    <div className="container section">
      <div className="auth-card">
        <HydrationGate>{children}</HydrationGate>
      </div>
    </div>
  </>
);
