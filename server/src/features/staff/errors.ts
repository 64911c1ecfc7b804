import type { StaffRole } from '../../db/schema.js';
import { declareErrors } from '../../domain-error.js';

/** Why a staff user could not log in, be read, created or changed. */
export const StaffError = declareErrors('staff', {
  /** The same for an unknown email, a wrong password and an inactive user. */
  invalidCredentials: () => ({}),
  notFound: () => ({}),
  operatorCannotManageStaff: () => ({}),
  onlySuperadminCreatesSuperadmin: () => ({}),
  onlySuperadminGrantsSuperadmin: () => ({}),
  emailTaken: () => ({}),
  ownRoleOrDeactivation: () => ({}),
  lastActiveSuperadmin: () => ({}),
  branchForSuperadmin: () => ({}),
  branchRequired: (role: StaffRole) => ({ role }),
  branchNotFound: () => ({}),
  exchangesForSuperadmin: () => ({}),
  exchangesOutsideBranch: (exchangeIds: number[], branchId: number) => ({ exchangeIds, branchId }),
});
