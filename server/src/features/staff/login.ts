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

/**
 * POST /auth/login: email and password for a staff access token (HS256, JWT_SECRET). Every attempt counts
 * against two budgets, one per email (guessing one account's password) and one per IP (trying many accounts);
 * a success clears the email's budget so earlier typos do not lock its owner out.
 */
export function loginRoutes({ db, limits, tokens }: { db: Database; limits: { login: RateLimiter }; tokens: StaffTokens }) {
  return async function routes(app: App) {
    app.post('/auth/login', {
      schema: {
        operationId: 'login', security: [], tags: ['auth'], summary: 'Staff login: returns a bearer access token (JWT)', body: LoginRequest,
        response: { 200: LoginResponse, ...errorResponses(400, 401, 429) },
      },
    }, async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const emailKey = `email:${email}`;
      for (const key of [emailKey, `ip:${request.ip}`]) {
        const decision = await limits.login.consume(key);
        if (!decision.allowed) throw rateLimitExceeded(decision);
      }
      const user = await findStaffForAuth(db, { email });
      // The same work and the same answer whether the email is unknown, the password wrong or the user inactive.
      const valid = user ? await verifyPassword(request.body.password, user.password_hash) : await verifyAgainstDummy(request.body.password);
      if (!user || !valid || !user.is_active) throw unauthorized('Invalid credentials');
      await limits.login.reset(emailKey);
      const token = await tokens.sign(user.id);
      reply.header('Cache-Control', 'no-store');
      return { accessToken: token.accessToken, tokenType: 'Bearer' as const, expiresIn: token.expiresIn };
    });
  };
}
