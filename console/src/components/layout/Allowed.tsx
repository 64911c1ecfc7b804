import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useMe } from '../../lib/auth/me';
import { PageHeader } from '../PageHeader';
import { NAV } from '../../lib/nav';

/** A page of the navigation opens only for the roles and permissions that list it; the API refuses the rest anyway. */
export function Allowed({ to, children }: { to: string; children: ReactNode }) {
  const me = useMe();
  const item = NAV.find((n) => n.to === to);
  if (!me.data || !item || item.visible(me.data)) return children;
  return (
    <>
      <PageHeader title="No access" />
      <Text>Your role ({me.data.role}) does not include this page. Ask an admin of your branch if you need it.</Text>
    </>
  );
}
