import type { ApiKeyType, Permission, StaffRole } from '../db/schema.js';
import type { Scope } from '../db/scope.js';

/** A principal's reach, for code that takes either kind of principal. */
export type { Scope };

export const ALL_PERMISSIONS: readonly Permission[] = [
  'orders:read',
  'orders:write',
  'clients:read',
  'clients:write',
  'webhooks:manage',
  'cash:write',
];

/** Who is calling, and what they may reach (their Scope). */
export interface KeyPrincipal extends Scope {
  kind: 'apiKey';
  keyId: string;
  keyType: ApiKeyType;
  /** The staff user behind a personal key (also the creator of branch and public keys, but not their principal). */
  staffUserId: number | null;
  permissions: ReadonlySet<Permission>;
  /** A public key limited to pages of these origins (absent: any origin). */
  allowedOrigins?: ReadonlySet<string>;
}

export interface StaffPrincipal extends Scope {
  kind: 'staff';
  staffUserId: number;
  role: StaffRole;
  email: string;
  permissions: ReadonlySet<Permission>;
  /** The verified access token's iat and exp (JWT seconds), for what lives as long as the token (the order stream). */
  token: { issuedAt: number | null; expiresAt: number };
}

export type Principal = KeyPrincipal | StaffPrincipal;

export function permissionsFor(role: StaffRole, granted: readonly Permission[]): ReadonlySet<Permission> {
  return new Set(role === 'operator' ? granted : ALL_PERMISSIONS);
}

/** The scope of a staff user: a superadmin reaches every branch, an admin its branch, an operator its exchanges. */
export function staffScope(role: StaffRole, branchId: number | null, exchangeIds: readonly number[]): Scope {
  if (role === 'superadmin') return { branchId: null, exchangeIds: null };
  if (role === 'admin') return { branchId, exchangeIds: null };
  return { branchId, exchangeIds };
}

/** Catalog data (exchanges, offers, rates) is readable branch-wide, whatever the key's exchange scope. */
export function branchScope(scope: Scope): Scope {
  return { branchId: scope.branchId, exchangeIds: null };
}
