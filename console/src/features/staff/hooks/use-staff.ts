import { useQuery } from '@tanstack/react-query';
import { useSave } from '../../../lib/forms/use-save';
import { staffKeys } from '../api/keys';
import { createStaffUser, listStaff, updateStaffUser, type NewStaffUser, type StaffChange } from '../api/staff';

/** The branch's staff; `enabled: false` where the viewer may not list them (an operator). */
export function useStaff({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: staffKeys.list(), queryFn: listStaff, enabled });
}

/** A new user (`id` null) or a change to one. */
export type StaffSave = { id: null; body: NewStaffUser } | { id: number; body: StaffChange };

export function useSaveStaffUser() {
  return useSave(
    (s: StaffSave) => (s.id === null ? createStaffUser(s.body) : updateStaffUser(s.id, s.body)),
    [staffKeys.all],
    (u) => `${u.email}: saved`,
  );
}
