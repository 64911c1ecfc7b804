import { useQuery } from '@tanstack/react-query';
import { useSave } from '../../../lib/forms/use-save';
import { lookupKeys } from '../../lookups';
import { createBranch, listBranches, setSandbox, type NewBranch } from '../api/branches';
import { branchKeys } from '../api/keys';

export function useBranches() {
  return useQuery({ queryKey: branchKeys.list(), queryFn: listBranches });
}

export function useCreateBranch() {
  return useSave(
    (body: NewBranch) => createBranch(body),
    [branchKeys.all, lookupKeys.all],
    (b) => `${b.name}: created`,
  );
}

export function useSetSandbox() {
  return useSave(
    ({ id, isSandbox }: { id: number; isSandbox: boolean }) => setSandbox(id, isSandbox),
    [branchKeys.all],
    (b) => `${b.name}: ${b.isSandbox ? 'now a sandbox' : 'no longer a sandbox'}`,
  );
}
