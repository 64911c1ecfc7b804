import { hash } from 'node:crypto';
import { verifyAgainstDummy, verifyPassword } from '../../auth/password.js';
import { rateLimitExceeded } from '../../auth/rate-limit-headers.js';
import type { RateLimiter } from '../../auth/rate-limiter.js';
import type { StaffTokens } from '../../auth/staff-jwt.js';
import type { Database, Executor } from '../../db/database.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { publicRoute } from '../../http/route.js';
import { NoContent } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { StaffError } from './errors.js';
import { CurrentStaff, LoginRequest, LoginResponse } from './schemas.js';
import { findStaffForAuth, logOutEverywhere } from './service.js';

export interface LoginLimits {
  loginAccount: RateLimiter;
  loginIp: RateLimiter;
}

/**
 * POST /auth/login: email and password for a staff access token (HS256, JWT_SECRET). Failed attempts count
 * against two budgets: one per account (guessing one password) and a larger one per client IP (trying many
 * accounts), sized so that an office whose cashiers share one address never reaches it by working normally.
 * A success spends nothing and clears its account's failures, so earlier typos do not lock its owner out.
 */
export function loginRoutes({ db, limits, tokens }: { db: Database; limits: LoginLimits; tokens: StaffTokens }) {
  return async function routes(app: App) {
    app.post(
      '/auth/login',
      publicRoute('auth')({
        errors: [401, 429],
        config: { noStore: true },
        schema: {
          operationId: 'login',
          summary: 'Staff login: returns a bearer access token (JWT)',
          body: LoginRequest,
          response: { 200: LoginResponse },
        },
      }),
      async (request) => {
        const email = request.body.email.trim().toLowerCase();
        // Hashed: the key lands in Redis, where KEYS and MONITOR would show whose accounts are being tried.
        const accountKey = `email:${hash('sha256', email, 'base64url')}`;
        const ipKey = `ip:${request.ip}`;
        // The point is taken before the password is checked and given back on success: parallel guesses cannot
        // all pass a check made before any of them failed.
        const decisions = [await limits.loginAccount.consume(accountKey), await limits.loginIp.consume(ipKey)];
        const refused = decisions.find((d) => !d.allowed);
        if (refused) throw rateLimitExceeded(refused);
        const readAt = Date.now();
        const user = await findStaffForAuth(db, { email });
        // The same work and the same answer whether the email is unknown, the password wrong or the user inactive.
        const valid = user
          ? await verifyPassword(request.body.password, user.password_hash)
          : await verifyAgainstDummy(request.body.password);
        if (!user || !valid || !user.is_active) throw StaffError.invalidCredentials();
        await Promise.all([limits.loginAccount.reset(accountKey), limits.loginIp.refund(ipKey)]);
        const token = await tokens.sign(user.id, { cutoff: user.tokens_valid_after, issuedAt: readAt });
        return { accessToken: token.accessToken, tokenType: 'Bearer' as const, expiresIn: token.expiresIn };
      },
    );
  };
}

/**
 * The caller's own session. POST /auth/logout is not audited, as logins are not: the trail records changes to the
 * service's data, and a log out changes nobody's rights. Personal API keys are not sessions and keep working (revoke
 * them on their own). GET /auth/me: who the token belongs to as the service judges it on this request (role and
 * scope are read live).
 */
export function sessionRoutes({ db }: { db: Executor }) {
  return async function routes(app: App) {
    app.post(
      '/auth/logout',
      staffRoute('auth')({
        roles: EVERY_ROLE,
        schema: {
          operationId: 'logout',
          summary: 'Log out everywhere: voids every access token of the caller issued up to now, on every device',
          response: { 204: NoContent },
        },
      }),
      async (request, reply) => {
        await logOutEverywhere(db, request.staff.staffUserId);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/auth/me',
      staffRoute('auth')({
        roles: EVERY_ROLE,
        schema: {
          operationId: 'getCurrentStaff',
          summary: 'The staff user of the access token, with its role and scope',
          response: { 200: CurrentStaff },
        },
      }),
      async (request) => {
        const s = request.staff;
        return {
          id: s.staffUserId,
          email: s.email,
          role: s.role,
          branchId: s.branchId,
          exchangeIds: s.exchangeIds === null ? null : [...s.exchangeIds],
          permissions: [...s.permissions],
        };
      },
    );
  };
}
