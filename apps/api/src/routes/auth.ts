import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AccountDeleteInputSchema,
  CodeSendInputSchema,
  DeletedSchema,
  HandshakeResultSchema,
  LoggedOutSchema,
  LoginInputSchema,
  LoginResultSchema,
  NoInputSchema,
  PasswordUpdateInputSchema,
  SentSchema,
  TERMS_VERSION,
  UpdatedSchema,
  UserCreateInputSchema,
} from '@proam/contract';
import { accountStore, weakPassword } from '../auth/accounts.js';
import { appUrlOf } from '../config.js';
import { codeStore, normalEmail } from '../auth/codes.js';
import type { Mail } from '../mail/mailer.js';
import { ApiError } from '../lib/api-error.js';
import { hashPassword } from '../lib/password.js';
import { defineRoute } from '../lib/route.js';
import { closeSocketsOf } from '../realtime/hub.js';
import {
  alreadyRegisteredMail,
  passwordChangedMail,
  registrationCodeMail,
  resetCodeMail,
} from '../mail/templates.js';

/** The opaque refresh token from `Authorization: Bearer …`; missing is InvalidRefreshToken too. */
function refreshTokenOf(req: FastifyRequest): string {
  const m = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(
    req.headers.authorization ?? '',
  );
  if (!m) throw new ApiError('InvalidRefreshToken');
  return m[1]!;
}

export function authRoutes(app: FastifyInstance): void {
  const { database, repos, clock, config, userCache, sessions } = app;
  const mail = (m: Mail) =>
    repos.outbox.enqueue([{ ...m, category: 'account' }]);
  const codes = codeStore(database.db, clock, config.jwtSecret);
  const accounts = accountStore(database.db, clock, userCache);
  const store = app.objectStore;
  const tags = ['auth'];

  defineRoute(app, {
    path: '/auth/code',
    auth: 'none',
    summary: 'Mail a 6-digit registration code (same answer for every address)',
    tags,
    input: CodeSendInputSchema,
    output: SentSchema,
    handler: async ({ input, req }) => {
      const email = normalEmail(input.email);
      const code = await codes.issue(email, 'register', req.ip);
      const registered = await accounts.findByEmail(email);
      // Either way one outbox row: the answer takes the same time (docs/security.md RC-05).
      await mail(
        registered
          ? alreadyRegisteredMail(email)
          : registrationCodeMail(email, code),
      );
      return { sent: true as const };
    },
  });

  defineRoute(app, {
    path: '/auth/code/reset',
    auth: 'none',
    summary:
      'Mail an 8-digit password reset code (same answer for every address)',
    tags,
    input: CodeSendInputSchema,
    output: SentSchema,
    handler: async ({ input, req }) => {
      const email = normalEmail(input.email);
      const code = await codes.issue(email, 'reset', req.ip);
      // Not awaited: an unknown address writes no mail, and the answer must
      // take the same time either way (docs/security.md RC-05).
      if (await accounts.findByEmail(email))
        mail(resetCodeMail(email, code)).catch((err: unknown) =>
          req.log.error({ err }, 'reset mail not queued'),
        );
      return { sent: true as const };
    },
  });

  defineRoute(app, {
    path: '/user/create',
    auth: 'none',
    summary:
      'Register a pro or amateur member with a registration code, and log in',
    tags: ['user'],
    input: UserCreateInputSchema,
    output: LoginResultSchema,
    // Each call tries a code and may hash a password (docs/security.md RL-01: register 10/h/IP).
    rateLimit: { max: 10, timeWindow: '1 hour' },
    handler: async ({ input, req }) => {
      const email = normalEmail(input.email);
      // Checked before the code is consumed, so a refused password costs no new code
      // (it depends on the input alone, never on whether the address is registered).
      weakPassword(input.password, email, input.userName);
      // A version other than the one in force is a stale form: refused before the code is used.
      if (
        input.termsVersion !== undefined &&
        input.termsVersion !== TERMS_VERSION
      )
        throw new ApiError('ValidationError', 'termsVersion');
      // The code first: only its holder learns that the address is taken (RC-05).
      // A registered address is never mailed a code, so this means "registered meanwhile".
      await codes.consume(email, 'register', input.code);
      if (await accounts.findByEmail(email)) throw new ApiError('EmailTaken');
      const user = await accounts.create(
        input,
        await hashPassword(input.password, req.ip),
      );
      // Registered without agreeing (older clients): asked at the first login instead.
      const terms =
        input.termsVersion !== undefined
          ? await repos.users.acceptTerms(
              user.id,
              input.termsVersion,
              clock.now(),
            )
          : undefined;
      req.log.info(
        { event: 'registered', userId: user.id, type: user.type },
        'member registered',
      );
      return sessions.start({
        ...user,
        termsVersion: terms?.version ?? user.termsVersion,
      });
    },
  });

  defineRoute(app, {
    path: '/auth/login',
    auth: 'client',
    summary: 'Log in with mail and password',
    tags,
    input: LoginInputSchema,
    output: LoginResultSchema,
    handler: async ({ input, req }) => {
      try {
        const user = await accounts.authenticate(
          input.mail,
          input.password,
          req.ip,
        );
        req.log.info({ event: 'login', userId: user.id }, 'login succeeded');
        const session = await sessions.start(user);
        app.metrics.logins.inc();
        return session;
      } catch (e) {
        if (e instanceof ApiError)
          req.log.info(
            { event: 'login_failed', code: e.code },
            'login refused',
          );
        // ApiError codes are a fixed set, so the label stays bounded.
        app.metrics.loginFailures.inc({
          code: e instanceof ApiError ? e.code : 'InternalError',
        });
        throw e;
      }
    },
  });

  defineRoute(app, {
    path: '/auth/update',
    auth: 'client',
    summary:
      'Set a new password with a reset code; ends every login of the member',
    tags,
    input: PasswordUpdateInputSchema,
    output: UpdatedSchema,
    // Code verifications per IP (docs/security.md RC-03: 30 per 5 minutes); per address, see codes.ts.
    rateLimit: { max: 30, timeWindow: '5 minutes' },
    handler: async ({ input, req }) => {
      const email = normalEmail(input.email);
      const user = await accounts.findByEmail(email);
      weakPassword(input.password, email, user?.userName ?? '');
      await codes.consume(email, 'reset', input.code);
      if (!user) throw new ApiError('InvalidCode');
      const passwordHash = await hashPassword(input.password, req.ip);
      // Every login and open socket of the member ends, with no moment when
      // a refresh could mint a token that outlives the reset.
      await sessions.revokeAllAround(user.id, () =>
        accounts.setPassword(user.id, passwordHash),
      );
      await mail(passwordChangedMail(email));
      req.log.info(
        { event: 'password_reset', userId: user.id },
        'password reset',
      );
      return { updated: true as const };
    },
  });

  defineRoute(app, {
    path: '/auth/delete',
    auth: 'client',
    summary: 'Delete the account (password confirmation)',
    tags,
    input: AccountDeleteInputSchema,
    output: DeletedSchema,
    handler: async ({ input, req }) => {
      const user = await accounts.authenticate(
        input.email,
        input.password,
        req.ip,
      );
      const { objects, freed, effects } = await accounts.remove(user.id, {
        appUrl: appUrlOf(config),
        paymentsOn: config.stripe !== null,
      });
      app.payments?.afterCommit(effects);
      // Their logins went with the account; their open sockets close too.
      await closeSocketsOf(database.db, user.id);
      // Their places go to whoever waits for them.
      await repos.schedules.fillFreedPlaces(freed, clock.now());
      await Promise.all(
        objects.map((k) =>
          store
            .remove(k)
            .catch((err: unknown) =>
              req.log.error({ err }, 'media delete failed'),
            ),
        ),
      );
      req.log.info(
        { event: 'account_deleted', userId: user.id },
        'account deleted',
      );
      return { deleted: true as const };
    },
  });

  defineRoute(app, {
    path: '/auth/handshake',
    auth: 'refresh',
    summary: 'Start-up: rotate the refresh token and return the session',
    tags,
    input: NoInputSchema,
    output: HandshakeResultSchema,
    handler: async ({ req }) => ({
      ...(await sessions.refresh(refreshTokenOf(req))),
      serverTime: clock.now().toISOString(),
    }),
  });

  defineRoute(app, {
    path: '/auth/refresh',
    auth: 'refresh',
    summary: 'Rotate the refresh token and issue a new access token',
    tags,
    input: NoInputSchema,
    output: LoginResultSchema,
    handler: async ({ req }) => sessions.refresh(refreshTokenOf(req)),
  });

  defineRoute(app, {
    path: '/auth/logout',
    auth: 'refresh',
    summary: 'End this login server-side',
    tags,
    input: NoInputSchema,
    output: LoggedOutSchema,
    handler: async ({ req }) => {
      await sessions.logout(refreshTokenOf(req));
      return { loggedOut: true as const };
    },
  });
}
