import { TermsDocument } from '@/features/legal/components/terms-document';

const TermsRoute = () => <TermsDocument />;

export default TermsRoute;
