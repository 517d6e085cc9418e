/**
 * The service's own charges as the legal pages state them (PRODUCT.md Wave 2,
 * the Q&A and the two menus promise the same figures).
 */
export const SYSTEM_FEE_LABEL = '550円（税込）';
export const COMMISSION_LABEL = 'レッスン料の10%';
