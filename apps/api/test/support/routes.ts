/** Every call of docs/api.md (section "Calls"); the punch-out calls come with the check-in issue. */
export const SPEC_PATHS = [
  '/auth/code',
  '/auth/code/reset',
  '/auth/update',
  '/auth/login',
  '/auth/delete',
  '/auth/handshake',
  '/auth/refresh',
  '/auth/logout',
  '/user/create',
  '/user/read',
  '/user/update',
  '/user/getByIdList',
  '/user/updateImageInfo',
  '/users/amature/all',
  '/users/amature/newer',
  '/users/pro/all',
  '/users/pro/condition',
  '/user/like',
  '/user/likeCount',
  '/user/likeCreate',
  '/user/likeDelete',
  '/schedule/getById',
  '/schedule/getActive',
  '/schedule/getByDate',
  '/schedule/create',
  '/schedule/update',
  '/schedule/updateRound',
  '/schedule/reserve',
  '/schedule/cancel',
  '/schedule/delete',
  '/roundLesson/message',
  '/roundLesson/getMessage',
  '/roundLesson/messageReaded',
  '/notification/unstepRoundLesson',
  '/competition/read',
  '/competition/create',
  '/competition/update',
  '/competition/delete',
  '/storage/upload',
  '/storage/update',
  '/storage/delete',
  '/news/read',
  '/news/readAll',
  '/news/create',
  '/news/update',
  '/news/delete',
  '/contact/create',
];

/** What the onRoute hook reports of a route, as far as the tests read it. */
export type RouteInfo = {
  method: string | string[];
  url: string;
  config?: { auth?: string };
  schema?: { response?: Record<string, unknown> };
};
