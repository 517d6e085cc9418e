import { Link } from 'react-router';
import { HydrationGate } from '@/components/hydration-gate';
import { PageHeader } from '@/components/page-header';
import { ContactForm } from '@/features/contact/components/contact-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

const ContactRoute = () => {
  useDocumentTitle('お問い合わせ');
  return (
    <>
      <PageHeader
        section="お問い合わせ"
        title="お問い合わせ"
        titleRight="CONTACT"
        description={
          <>
            サービスや会員登録、大会・イベントに関するご質問は、以下のフォームからお送りください。お問い合わせの前に
            <Link to="/qa">よくある質問</Link>
            もあわせてご覧ください。
          </>
        }
      />
      <div className="container section narrow">
        <HydrationGate>
          <ContactForm />
        </HydrationGate>
      </div>
    </>
  );
};

export default ContactRoute;
