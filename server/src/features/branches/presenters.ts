import type * as repo from './repository.js';

export function branchView(b: repo.BranchRow) {
  return { id: b.id, name: b.name, isSandbox: b.is_sandbox, createdAt: b.created_at, updatedAt: b.updated_at };
}
