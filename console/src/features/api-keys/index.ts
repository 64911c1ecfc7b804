export { apiKeyKeys } from './api/keys';
export { BranchKeys } from './components/BranchKeys';
export { CreateKeyForm } from './components/CreateKeyForm';
export { KeyTable } from './components/KeyTable';
export { useMyKeys } from './hooks/use-keys';
