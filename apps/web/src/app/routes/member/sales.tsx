import { SalesPage } from '@/features/payment/components/sales-page';
import '@/styles/payments.css';

/** `#/sales`: a pro's 売上明細 (admins may name a pro with `?proId=`). */
export default SalesPage;
