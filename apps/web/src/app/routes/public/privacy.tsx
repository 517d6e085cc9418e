import { PrivacyDocument } from '@/features/legal/components/privacy-document';

const PrivacyRoute = () => <PrivacyDocument />;

export default PrivacyRoute;
