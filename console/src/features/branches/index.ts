export { branchKeys } from './api/keys';
export { BranchTable } from './components/BranchTable';
export { NewBranchForm } from './components/NewBranchForm';
export { useBranches } from './hooks/use-branches';
