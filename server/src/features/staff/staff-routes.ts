import { hash } from 'node:crypto';
import { verifyAgainstDummy, verifyPassword } from '../../auth/password.js';
import { rateLimitExceeded } from '../../auth/rate-limit-headers.js';
import type { RateLimiter } from '../../auth/rate-limiter.js';
import type { StaffTokens } from '../../auth/staff-jwt.js';
import type { Database } from '../../db/database.js';
import { unauthorized } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { findStaffForAuth } from './repository.js';
import { LoginRequest, LoginResponse } from './schemas.js';

export interface LoginLimits { loginAccount: RateLimiter; loginIp: RateLimiter }

/**
 * POST /auth/login: email and password for a staff access token (HS256, JWT_SECRET). Failed attempts count
 * against two budgets: one per account (guessing one password) and a larger one per client IP (trying many
 * accounts), sized so that an office whose cashiers share one address never reaches it by working normally.
 * A success spends nothing and clears its account's failures, so earlier typos do not lock its owner out.
 */
export function loginRoutes({ db, limits, tokens }: { db: Database; limits: LoginLimits; tokens: StaffTokens }) {
  return async function routes(app: App) {
    app.post('/auth/login', {
      config: { noStore: true },
      schema: {
        operationId: 'login', security: [], tags: ['auth'], summary: 'Staff login: returns a bearer access token (JWT)', body: LoginRequest,
        response: { 200: LoginResponse, ...errorResponses(400, 401, 429) },
      },
    }, async (request, reply) => {
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
      const valid = user ? await verifyPassword(request.body.password, user.password_hash) : await verifyAgainstDummy(request.body.password);
      if (!user || !valid || !user.is_active) throw unauthorized('Invalid credentials');
      await Promise.all([limits.loginAccount.reset(accountKey), limits.loginIp.refund(ipKey)]);
      const token = await tokens.sign(user.id, { cutoff: user.tokens_valid_after, issuedAt: readAt });
      return { accessToken: token.accessToken, tokenType: 'Bearer' as const, expiresIn: token.expiresIn };
    });
  };
}
