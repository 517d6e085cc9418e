import { TokushohoDocument } from '@/features/legal/components/tokushoho-document';
import '@/styles/legal.css';

const TokushohoRoute = () => <TokushohoDocument />;

export default TokushohoRoute;
