/**
 * Field sets shared by several schema files. index.ts does not re-export
 * them: they are parts of the published schemas, not schemas of their own.
 */
import { MoneySchema } from './common.js';

/**
 * What a member is charged for a reservation, in yen: the lesson fee and the
 * system fee (SERVICE_FEE online, 0 when paid at the course).
 */
export const Charge = {
  amount: MoneySchema,
  serviceFee: MoneySchema,
};
