import { Type, type Static } from 'typebox';
import { InputObject } from './common.js';

/**
 * (wave 2) Which mails a member wants. `bookingMail` covers reservations,
 * cancellations, calling off, waitlist places and payments; `reminderMail` the
 * reminder the evening before; `chatMail` the unread-chat digest. Mails about
 * codes, passwords and the account are always sent.
 */
export const NotificationSettingsSchema = Type.Object({
  bookingMail: Type.Boolean(),
  reminderMail: Type.Boolean(),
  chatMail: Type.Boolean(),
});
export type NotificationSettings = Static<typeof NotificationSettingsSchema>;

export const NotificationSettingsUpdateInputSchema = InputObject({
  bookingMail: Type.Optional(Type.Boolean()),
  reminderMail: Type.Optional(Type.Boolean()),
  chatMail: Type.Optional(Type.Boolean()),
});
export type NotificationSettingsUpdateInput = Static<
  typeof NotificationSettingsUpdateInputSchema
>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  bookingMail: true,
  reminderMail: true,
  chatMail: true,
};

/**
 * (wave 2, beyond the contract) The mail outbox as an admin sees it: counts by
 * state, and the mails given up after 24 hours of failed attempts.
 */
export const DeadMailSchema = Type.Object({
  id: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  attempts: Type.Integer(),
  lastError: Type.Optional(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
});
export type DeadMail = Static<typeof DeadMailSchema>;

export const MailOutboxSummarySchema = Type.Object({
  queued: Type.Integer({ minimum: 0 }),
  sent: Type.Integer({ minimum: 0 }),
  skipped: Type.Integer({ minimum: 0 }),
  dead: Type.Integer({ minimum: 0 }),
  oldestQueuedAt: Type.Optional(Type.String({ format: 'date-time' })),
  deadMails: Type.Array(DeadMailSchema),
});
export type MailOutboxSummary = Static<typeof MailOutboxSummarySchema>;
