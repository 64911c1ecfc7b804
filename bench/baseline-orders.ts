import type { FastifyInstance } from 'fastify';
import type { Scope } from '../src/auth/principal.js';
import type { Database } from '../src/db/database.js';

/** Order routes of baseline (b); filled in when the orders feature lands. */
export function baselineOrderRoutes(_app: FastifyInstance, _db: Database, _scope: Scope): void {}
