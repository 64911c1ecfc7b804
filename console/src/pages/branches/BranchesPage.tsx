import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { BranchTable, NewBranchForm, useBranches } from '../../features/branches';

/**
 * The network's branches (superadmin): each has its own exchanges, staff, clients, keys and webhooks. A sandbox
 * branch lets partners move their own orders to test their webhook handling (docs/integration.md).
 */
export function BranchesPage() {
  const branches = useBranches();
  return (
    <>
      <PageHeader title="Branches" />
      <QueryState query={branches}>{(data) => <BranchTable branches={data.data} />}</QueryState>
      <NewBranchForm />
    </>
  );
}
