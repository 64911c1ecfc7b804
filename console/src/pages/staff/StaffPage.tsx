import { Button, Modal } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import type { StaffUser } from '../../lib/api/types';
import { useLookups } from '../../features/lookups';
import { StaffForm, StaffTable, useStaff } from '../../features/staff';

/** Staff of the branch (every branch for a superadmin): who may log in, with which role, at which exchanges. */
export function StaffPage() {
  const lookups = useLookups();
  const staff = useStaff();
  const [editing, setEditing] = useState<StaffUser | 'new' | null>(null);
  return (
    <>
      <PageHeader title="Staff">
        <Button onClick={() => setEditing('new')}>New staff user</Button>
      </PageHeader>
      <QueryState query={staff}>
        {(data) => <StaffTable staff={data.data} lookups={lookups.data} onEdit={setEditing} />}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New staff user' : `Edit ${editing?.email ?? ''}`}
      >
        {editing && <StaffForm user={editing === 'new' ? null : editing} onSaved={() => setEditing(null)} />}
      </Modal>
    </>
  );
}
