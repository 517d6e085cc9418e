import { PaymentPage } from '@/features/payment/components/payment-page';

/** `#/payment/:scheduleId`: お支払い (the payment feature owns the page). */
export default PaymentPage;
