import { PrivacyDocument } from '@/features/legal/components/privacy-document';
import '@/styles/legal.css';

const PrivacyRoute = () => <PrivacyDocument />;

export default PrivacyRoute;
