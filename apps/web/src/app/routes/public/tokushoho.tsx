import { TokushohoDocument } from '@/features/legal/components/tokushoho-document';

const TokushohoRoute = () => <TokushohoDocument />;

export default TokushohoRoute;
