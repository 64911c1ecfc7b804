import type { Executor } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { badRequest, fieldNotFound } from '../../http/errors.js';
import * as repo from './repository.js';

export function branchView(b: repo.BranchRow) {
  return { id: b.id, name: b.name, createdAt: b.created_at, updatedAt: b.updated_at };
}

export async function createBranch(db: Executor, name: string) {
  try {
    return branchView(await repo.insertBranch(db, name.trim()));
  } catch (err) {
    if (uniqueViolation(err) === 'branches_name_key') throw badRequest('A branch with this name already exists', { name: 'alreadyExists' });
    throw err;
  }
}

export async function listBranches(db: Executor, params: ListParams) {
  return mapPage(await repo.listBranches(db, params), branchView);
}

/** Whether a branch exists: the one lookup every feature that is told a branch id makes. */
export function branchExists(db: Executor, id: number): Promise<boolean> {
  return repo.branchExists(db, id);
}

/**
 * The branch a new resource goes to: a branch-scoped caller's own (any other branch does not exist for it, so
 * naming one is `branchId: notFound`); a caller that reaches every branch must name an existing one.
 */
export async function targetBranch(db: Executor, scope: Scope, requested: number | undefined): Promise<number> {
  if (scope.branchId !== null) {
    if (requested !== undefined && requested !== scope.branchId) throw fieldNotFound('branchId');
    return scope.branchId;
  }
  if (requested === undefined) throw badRequest('branchId is required', { branchId: 'required' });
  if (!(await repo.branchExists(db, requested))) throw fieldNotFound('branchId');
  return requested;
}
