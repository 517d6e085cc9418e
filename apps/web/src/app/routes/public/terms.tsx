import { TermsDocument } from '@/features/legal/components/terms-document';
import '@/styles/legal.css';

const TermsRoute = () => <TermsDocument />;

export default TermsRoute;
