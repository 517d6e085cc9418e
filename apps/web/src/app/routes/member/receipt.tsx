import { ReceiptPage } from '@/features/payment/components/receipt-page';
import '@/styles/payments.css';

/** `#/receipt/:reservationId`: the printable 領収書 of one payment. */
export default ReceiptPage;
