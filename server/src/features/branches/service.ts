import type { Executor } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { inTransaction, type Audit } from '../audit/service.js';
import { BranchError } from './errors.js';
import { branchView } from './presenters.js';
import * as repo from './repository.js';

function uniqueName(err: unknown): never {
  if (uniqueViolation(err) === 'branches_name_key') throw BranchError.nameTaken();
  throw err;
}

export async function createBranch(db: Executor, audit: Audit, body: { name: string; isSandbox?: boolean }) {
  try {
    return await inTransaction(db, async (tx) => {
      const branch = branchView(await repo.insertBranch(tx, body.name.trim(), body.isSandbox ?? false));
      await audit.record(tx, {
        action: 'branch.create',
        entityType: 'branch',
        entityId: branch.id,
        branchId: branch.id,
        after: branch,
      });
      return branch;
    });
  } catch (err) {
    return uniqueName(err);
  }
}

/** Renames a branch or turns its sandbox on or off; orders already placed keep the mark they were created with. */
export async function updateBranch(
  db: Executor,
  audit: Audit,
  id: number,
  body: { name?: string; isSandbox?: boolean },
) {
  try {
    return await inTransaction(db, async (tx) => {
      const before = await repo.findBranch(tx, id);
      const row = await repo.updateBranch(tx, id, { name: body.name?.trim(), is_sandbox: body.isSandbox });
      if (!before || !row) throw BranchError.notFound();
      const branch = branchView(row);
      await audit.record(tx, {
        action: 'branch.update',
        entityType: 'branch',
        entityId: id,
        branchId: id,
        before: branchView(before),
        after: branch,
      });
      return branch;
    });
  } catch (err) {
    return uniqueName(err);
  }
}

/** Whether partners may move their own orders in the branch (decisions: "Sandbox branch"). */
export function isSandbox(db: Executor, id: number): Promise<boolean> {
  return repo.isSandbox(db, id);
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
    if (requested !== undefined && requested !== scope.branchId) throw BranchError.targetNotFound();
    return scope.branchId;
  }
  if (requested === undefined) throw BranchError.targetRequired();
  if (!(await repo.branchExists(db, requested))) throw BranchError.targetNotFound();
  return requested;
}
