import { CompetitionsBoard } from '@/features/competitions/components/competitions-board';
import '@/styles/admin.css';

const CompetitionsTabRoute = () => <CompetitionsBoard />;

export default CompetitionsTabRoute;
