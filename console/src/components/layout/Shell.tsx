import { AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';
import { session } from '../../lib/auth/session';
import { useMe } from '../../lib/auth/me';
import { QueryState } from '../QueryState';
import { UnsavedGuard } from '../unsaved-guard';
import { NAV } from '../../lib/nav';
import './skip-link.css';

/** The frame of every page: the pages of the user's role on the left (a drawer on narrow screens), who is logged in on top. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const me = useMe();
  const location = useLocation();
  const queryClient = useQueryClient();
  const logout = () => {
    session.end();
    queryClient.clear();
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 230, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="md"
    >
      {/* The header and a dozen pages of navigation come first: one Tab and Enter skips them. */}
      <a
        href="#main"
        className="pxs-skip-link"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* On a phone the title gives way (cut short), never the role or Log out. */}
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Toggle navigation" />
            <Title order={2} size="h4" lineClamp={1}>
              PXS staff console
            </Title>
          </Group>
          {me.data && (
            <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
              <Text size="sm" visibleFrom="sm" data-testid="current-user">
                {me.data.email}
              </Text>
              <Badge variant="light">{me.data.role}</Badge>
              <Button variant="subtle" size="compact-sm" leftSection={<IconLogout size={16} />} onClick={logout}>
                Log out
              </Button>
            </Group>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Pages">
        <ScrollArea>
          {me.data &&
            NAV.filter((item) => item.visible(me.data)).map((item) => (
              <NavLink
                key={item.to}
                component={RouterLink}
                to={item.to}
                end={item.to === '/'}
                label={item.label}
                leftSection={<item.icon size={18} />}
                onClick={close}
                active={item.to === '/' ? location.pathname === '/' : location.pathname.startsWith(item.to)}
              />
            ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} style={{ outline: 'none' }}>
        <QueryState query={me}>{() => <Outlet />}</QueryState>
      </AppShell.Main>
      <UnsavedGuard />
    </AppShell>
  );
}
