import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import {
  IdListInputSchema,
  ImageInfoInputSchema,
  PageInputSchema,
  ProConditionInputSchema,
  SizeInputSchema,
  TERMS_VERSION,
  TermsAcceptanceSchema,
  TermsAcceptInputSchema,
  UserReadInputSchema,
  UserSchema,
  UserUpdateInputSchema,
  type User,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import {
  refuseProtectedChanges,
  unchanged,
  sameInstant,
} from '../lib/protected-fields.js';
import { normalEmail } from '../auth/codes.js';
import { defineRoute, MEMBERS_AND_BUYERS, type Caller } from '../lib/route.js';
import { pageOf } from '../lib/paging.js';
import { toUser, type UserRow } from '../repositories/user-repository.js';

export function userRoutes(app: FastifyInstance): void {
  const { repos, config, clock } = app;
  const repo = repos.users;
  const tags = ['user'];
  const view = (caller: Caller | null) => (row: Parameters<typeof toUser>[0]) =>
    toUser(row, {
      withEmail: caller?.id === row.id || caller?.type === 'admin',
      mediaBaseUrl: config.mediaBaseUrl,
    });
  // A punch-out buyer sees what the public site shows: pros, never amateurs
  // (docs/security.md AC-05); a suspended member is hidden from everyone but
  // themself and admins.
  const visibleTo = (
    caller: Caller | null,
    row: { id: string; type: string; suspendedAt: Date | null },
  ) =>
    (caller?.type !== 'buyer' || row.type === 'pro') &&
    (row.suspendedAt === null ||
      caller?.id === row.id ||
      caller?.type === 'admin');
  // Admins also see pros not yet checked and suspended members in lists.
  const unlisted = (caller: Caller) => ({
    unlisted: caller.type === 'admin',
    // Blocks hide both members from each other's lists (admins see all).
    ...(caller.type === 'admin' ? {} : { viewerId: caller.id }),
  });
  // A cached row is shared and never changed, so the view others see of it is built once.
  const publicViews = new WeakMap<object, User>();
  const readView = (
    caller: Caller | null,
    row: Parameters<typeof toUser>[0],
  ) => {
    if (caller?.id === row.id || caller?.type === 'admin')
      return view(caller)(row);
    let shown = publicViews.get(row);
    if (!shown) {
      shown = Object.freeze(view(caller)(row));
      publicViews.set(row, shown);
    }
    return shown;
  };
  // A page of pros from the shared cache (a search, the list) is the same
  // array for every member in no block (user-repository.ts `sharedPage`), so
  // its view is built once too; a page that holds the caller's own row shows
  // them their email and is their own.
  const pageViews = new WeakMap<object, User[]>();
  const pageView = (caller: Caller, rows: UserRow[]): User[] => {
    if (caller.type === 'admin' || rows.some((r) => r.id === caller.id))
      return rows.map(view(caller));
    let shown = pageViews.get(rows);
    if (!shown) {
      shown = rows.map((row) => readView(caller, row));
      pageViews.set(rows, shown);
    }
    return shown;
  };
  const users = Type.Array(UserSchema);

  defineRoute(app, {
    path: '/user/read',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'One member, or null for an unknown id',
    tags,
    input: UserReadInputSchema,
    output: Type.Union([UserSchema, Type.Null()]),
    handler: async ({ input, caller }) => {
      const row = await repo.find(input.id);
      return row && visibleTo(caller, row) ? readView(caller, row) : null;
    },
  });

  defineRoute(app, {
    path: '/user/update',
    auth: 'bearer',
    summary:
      "Update a profile (one's own, or any as admin); identity fields only as they are",
    owner: { field: 'id', admins: true },
    tags,
    input: UserUpdateInputSchema,
    output: UserSchema,
    handler: async ({ input, caller }) => {
      const targetId = input.id ?? caller.id;
      const target = await repo.find(targetId);
      if (!target) throw new ApiError('NotFound');
      // `likeCount` follows others' likes and is ignored: a profile read a
      // minute ago may carry an older count.
      refuseProtectedChanges([
        unchanged('type', input.type, (t) => t === target.type),
        unchanged(
          'email',
          input.email,
          (e) => normalEmail(e) === normalEmail(target.email ?? ''),
        ),
        unchanged('createdAt', input.createdAt, sameInstant(target.createdAt)),
        // Photos change through /user/updateImageInfo, which checks ownership.
        unchanged(
          'imageInfo',
          input.imageInfo?.map((i) => i.keyName).join('\n'),
          (keys) =>
            keys === (target.imageInfo ?? []).map((i) => i.keyName).join('\n'),
        ),
      ]);
      const row = await repo.update(targetId, target.type, input, clock.now());
      if (!row) throw new ApiError('NotFound');
      return view(caller)(row);
    },
  });

  defineRoute(app, {
    path: '/user/acceptTerms',
    auth: 'bearer',
    summary:
      'Agree to the 利用規約 and プライバシーポリシー in force (the version shown to the member)',
    tags,
    input: TermsAcceptInputSchema,
    output: TermsAcceptanceSchema,
    handler: async ({ input, caller, req }) => {
      // The member agrees to the text they were shown: a page older than the
      // version in force must be reloaded, not silently counted.
      if (input.version !== TERMS_VERSION)
        throw new ApiError('ValidationError', 'version');
      const done = await repo.acceptTerms(
        caller.id,
        input.version,
        clock.now(),
      );
      if (!done) throw new ApiError('NotFound');
      req.log.info(
        { event: 'terms_accepted', userId: caller.id, version: done.version },
        'terms accepted',
      );
      return {
        version: done.version,
        acceptedAt: done.acceptedAt.toISOString(),
      };
    },
  });

  defineRoute(app, {
    path: '/user/getByIdList',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'Members by id, in the order asked; unknown ids skipped',
    tags,
    input: IdListInputSchema,
    output: users,
    handler: async ({ input, caller }) =>
      (await repo.findMany(input.idList))
        .filter((row) => visibleTo(caller, row))
        .map(view(caller)),
  });

  defineRoute(app, {
    path: '/user/updateImageInfo',
    auth: 'bearer',
    summary:
      "Set the caller's photos (at most 6, the first is the main one) from their own uploads",
    tags,
    input: ImageInfoInputSchema,
    output: UserSchema,
    handler: async ({ input, caller }) => {
      const keys = input.imageInfo.map((i) => i.keyName);
      if (new Set(keys).size !== keys.length)
        throw new ApiError('ValidationError', 'imageInfo');
      const owned = await repos.media.ownedBy(caller.id, keys);
      if (keys.some((k) => !owned.has(k))) throw new ApiError('Forbidden');
      const row = await repo.setImages(caller.id, keys, clock.now());
      if (!row) throw new ApiError('NotFound');
      return view(caller)(row);
    },
  });

  /** One page of a member type, newest first: the two …/all calls. */
  const listAll =
    (type: 'amature' | 'pro') =>
    async ({
      input,
      caller,
    }: {
      input: Static<typeof PageInputSchema>;
      caller: Caller;
    }) =>
      pageView(
        caller,
        await repo.listByType(
          type,
          pageOf(input, 20),
          undefined,
          unlisted(caller),
        ),
      );

  defineRoute(app, {
    path: '/users/amature/all',
    auth: 'bearer',
    summary: 'Amateur members, newest first (pros and admins)',
    roles: ['pro', 'admin'],
    tags: ['users'],
    input: PageInputSchema,
    output: users,
    handler: listAll('amature'),
  });

  defineRoute(app, {
    path: '/users/amature/newer',
    auth: 'bearer',
    summary:
      'Amateurs registered in the last 30 days, newest first (pros and admins)',
    roles: ['pro', 'admin'],
    tags: ['users'],
    input: SizeInputSchema,
    output: users,
    handler: async ({ input, caller }) => {
      const since = new Date(clock.now().getTime() - 30 * 86_400_000);
      return (
        await repo.listByType(
          'amature',
          pageOf(input, 20),
          since,
          unlisted(caller),
        )
      ).map(view(caller));
    },
  });

  defineRoute(app, {
    path: '/users/pro/all',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'Pro members, newest first',
    tags: ['users'],
    input: PageInputSchema,
    output: users,
    cachedAnswers: true,
    handler: listAll('pro'),
  });

  defineRoute(app, {
    path: '/users/pro/condition',
    auth: 'bearer',
    roles: MEMBERS_AND_BUYERS,
    summary: 'Search pros by area, keyword, fee range and open lesson date',
    tags: ['users'],
    input: ProConditionInputSchema,
    output: users,
    cachedAnswers: true,
    handler: async ({ input, caller }) => {
      if (
        input.feeMin !== undefined &&
        input.feeMax !== undefined &&
        input.feeMin > input.feeMax
      )
        throw new ApiError('ValidationError', 'feeMin');
      return pageView(caller, await repo.searchPros(input, unlisted(caller)));
    },
  });
}
