import type {
  Competition,
  DeadMail,
  Like,
  MailOutboxSummary,
  Message,
  MyReservation,
  NotificationSettings,
  Schedule,
  User,
} from '@proam/contract';

/**
 * A factory of test data: `defaults()`, made afresh on each call so no two
 * results share an array or object, under the caller's `overrides`.
 */
export const factory =
  <T>(defaults: () => T) =>
  (overrides: Partial<T> = {}): T => ({ ...defaults(), ...overrides });

/** Like `factory`, for data whose defaults depend on its id. */
export const keyedFactory =
  <T>(defaults: (id: string) => T) =>
  (id: string, overrides: Partial<T> = {}): T => ({
    ...defaults(id),
    ...overrides,
  });

/** The logged-in amateur `u-1` as /user/getById returns it to themself. */
export const createUser = factory((): User => ({
  id: 'u-1',
  type: 'amature',
  userName: '山本 拓也',
  nameKana: 'やまもと たくや',
  area: '東京都',
  bio: '週末ゴルファーです。',
  imageInfo: [],
  amateur: { averageScore: 98, experienceYears: 3 },
  likeCount: 0,
  createdAt: '2026-10-01T00:00:00.000Z',
  email: 'ama1@example.jp',
}));

/** A pro as the search lists it. */
export const createPro = (id = 'p1', overrides: Partial<User> = {}): User => ({
  id,
  type: 'pro',
  userName: `プロ ${id}`,
  area: '神奈川県',
  imageInfo: [],
  pro: {
    lessonFee: 12000,
    verified: true,
    ratingAverage: null,
    reviewCount: 0,
  },
  likeCount: 2,
  createdAt: '2026-10-01T00:00:00.000Z',
  ...overrides,
});

/** `u-1`'s like of `likeUserId`. */
export const createLike = (
  likeUserId: string,
  likeId = `l-${likeUserId}`,
): Like => ({
  likeId,
  userType: 'amature',
  userId: 'u-1',
  likeUserId,
  createdAt: '2026-11-01T00:00:00.000Z',
});

/** A round lesson of `pro-1`. */
export const createLesson = keyedFactory((id): Schedule => ({
  id,
  proId: 'pro-1',
  date: '2026-11-28',
  startTime: '09:00',
  endTime: '14:00',
  place: '府中カントリークラブ',
  capacity: 3,
  fee: 20000,
  statusRound: 'open',
  reservedCount: 1,
  waitlistCount: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
}));

/** `u-1`'s reservation of a lesson, as confirmed without online payment. */
export const createMyReservation = factory((): MyReservation => ({
  status: 'confirmed',
  amount: 20000,
  serviceFee: 0,
  paymentStatus: 'none',
}));

/** A lesson `u-1` has reserved: among the participants, with its reservation. */
export const createReservedLesson = (
  id: string,
  overrides: Partial<Schedule> = {},
): Schedule =>
  createLesson(id, {
    participants: ['u-1'],
    myReservation: createMyReservation(),
    ...overrides,
  });

/** A full lesson `u-1` has not reserved, with `waitlistCount` others waiting. */
export const createFullLesson = (
  id: string,
  overrides: Partial<Schedule> = {},
): Schedule =>
  createLesson(id, {
    statusRound: 'full',
    capacity: 2,
    reservedCount: 2,
    ...overrides,
  });

/** Every mail on by default, as API.md says. */
export const createNotificationSettings = factory((): NotificationSettings => ({
  bookingMail: true,
  reminderMail: true,
  chatMail: true,
}));

export const createDeadMail = keyedFactory((id): DeadMail => ({
  id,
  to: 'ama1@example.jp',
  subject: '【ProAm Connect】ご予約を承りました',
  attempts: 12,
  lastError: 'connect ECONNREFUSED 127.0.0.1:25',
  createdAt: '2026-11-20T01:00:00.000Z',
}));

export const createMailOutboxSummary = factory((): MailOutboxSummary => ({
  queued: 0,
  sent: 0,
  skipped: 0,
  dead: 0,
  deadMails: [],
}));

export const createCompetition = factory((): Competition => ({
  id: 'c-1',
  name: '秋のプロアム',
  date: '2026-10-01',
  venue: '富士ゴルフ倶楽部',
  status: 'closed',
  results: [],
  createdAt: '2026-09-01T00:00:00.000Z',
  updatedAt: '2026-09-01T00:00:00.000Z',
}));

/** The n-th message's sort key: ascending with n, as ULIDs are. */
export const messageKey = (n: number) => `01K${String(n).padStart(23, '0')}`;

/** Message n of lesson L1, sent by u-2. */
export const createMessage = (
  n: number,
  overrides: Partial<Message> = {},
): Message => ({
  partitionKey: 'L1',
  sort_key: messageKey(n),
  msg: `メッセージ${n}`,
  sender: 'u-2',
  createTime: '2026-11-22T01:00:00.000Z',
  readBy: [],
  ...overrides,
});

/** Messages `from`..`to`, ascending, as one page of getMessage. */
export const messageRange = (
  from: number,
  to: number,
  overrides: Partial<Message> = {},
) =>
  Array.from({ length: to - from + 1 }, (_, i) =>
    createMessage(from + i, overrides),
  );
