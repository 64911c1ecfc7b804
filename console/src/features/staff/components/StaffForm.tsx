import {
  Alert,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import type { Permission, StaffUser } from '../../../lib/api/types';
import { hasRole, useMe } from '../../../lib/auth/me';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { branchOptions, exchangeOptions, useLookups } from '../../lookups';
import { useSaveStaffUser, type StaffSave } from '../hooks/use-staff';

const PERMISSIONS: Permission[] = [
  'orders:read',
  'orders:write',
  'clients:read',
  'clients:write',
  'webhooks:manage',
  'cash:write',
];

type Fields = {
  email: string;
  password: string;
  role: string;
  branchId: string;
  exchangeIds: string[];
  permissions: string[];
  isActive: boolean;
};

/** A staff user: role, branch, the exchanges an operator serves, and what it may do. A new one needs a password. */
export function StaffForm({ user, onSaved }: { user: StaffUser | null; onSaved: () => void }) {
  const me = useMe();
  const lookups = useLookups();
  const superadmin = hasRole(me.data, 'superadmin');
  const form = useForm<Fields>({
    initialValues: {
      email: user?.email ?? '',
      password: '',
      role: user?.role ?? 'operator',
      branchId: user?.branchId ? String(user.branchId) : '',
      exchangeIds: (user?.exchangeIds ?? []).map(String),
      permissions: user?.permissions ?? ['orders:read', 'orders:write'],
      isActive: user?.isActive ?? true,
    },
  });
  useUnsavedChanges(form.isDirty(), user ? `Staff user ${user.email}` : 'New staff user');
  const save = useSaveStaffUser();
  const toSave = (v: Fields): StaffSave => {
    const common = {
      role: v.role as StaffUser['role'],
      ...(superadmin && v.role !== 'superadmin' && v.branchId ? { branchId: Number(v.branchId) } : {}),
      ...(v.role === 'operator'
        ? { exchangeIds: v.exchangeIds.map(Number), permissions: v.permissions as Permission[] }
        : {}),
    };
    if (user === null) return { id: null, body: { email: v.email, password: v.password, ...common } };
    return { id: user.id, body: { ...common, isActive: v.isActive, ...(v.password ? { password: v.password } : {}) } };
  };
  const v = form.values;
  const exchanges = exchangeOptions(lookups.data).filter(
    (o) =>
      !v.branchId || lookups.data?.exchanges.find((e) => String(e.id) === o.value)?.branchId === Number(v.branchId),
  );

  return (
    <form
      onSubmit={form.onSubmit((values) =>
        save.mutate(toSave(values), { onSuccess: onSaved, onError: fieldErrorsTo(form) }),
      )}
    >
      <Stack gap="xs">
        <TextInput label="Email" type="email" required disabled={user !== null} {...form.getInputProps('email')} />
        <PasswordInput
          label={user ? 'New password (optional)' : 'Password'}
          description="At least 12 characters"
          required={user === null}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <Select
          label="Role"
          allowDeselect={false}
          data={[...(superadmin ? ['superadmin'] : []), 'admin', 'operator']}
          {...form.getInputProps('role')}
        />
        {superadmin && v.role !== 'superadmin' && (
          <Select label="Branch" required data={branchOptions(lookups.data)} {...form.getInputProps('branchId')} />
        )}
        {v.role === 'operator' && (
          <>
            <MultiSelect label="Exchanges served" data={exchanges} searchable {...form.getInputProps('exchangeIds')} />
            {/* Allowed (an operator moved between branches loses its exchanges too), but its every page would be empty. */}
            {v.exchangeIds.length === 0 && (
              <Alert
                color="orange"
                variant="light"
                p="xs"
                icon={<IconAlertTriangle size={16} />}
                data-warning="no-exchanges"
              >
                An operator without exchanges sees no orders. Choose at least one exchange, or assign one later.
              </Alert>
            )}
            <Checkbox.Group label="Permissions" {...form.getInputProps('permissions')}>
              <Group mt={4} gap="sm">
                {PERMISSIONS.map((p) => (
                  <Checkbox key={p} value={p} label={p} />
                ))}
              </Group>
            </Checkbox.Group>
          </>
        )}
        {user && (
          <Switch
            label="Active (can log in; personal keys work)"
            {...form.getInputProps('isActive', { type: 'checkbox' })}
          />
        )}
        <Group mt="sm">
          <Button type="submit" loading={save.isPending}>
            {user ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
