export { staffKeys } from './api/keys';
export { StaffForm } from './components/StaffForm';
export { StaffTable } from './components/StaffTable';
export { useStaff } from './hooks/use-staff';
