import type { FastifyRequest } from 'fastify';
import type { Permission } from '../db/schema.js';
import { forbidden } from '../http/errors.js';

/** A route's preHandler: an operator's rights follow its permissions, as its personal keys' do; admins hold them all. */
export function requirePermission(permission: Permission) {
  return async (request: FastifyRequest) => {
    if (!request.staff.permissions.has(permission)) throw forbidden(`This staff user lacks the ${permission} permission`);
  };
}

export const EVERY_ROLE = ['superadmin', 'admin', 'operator'] as const;
