import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function PageHeader({ title, description, children }: { title: string; description?: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
      <div>
        <Title order={1} size="h2">{title}</Title>
        {description && <Text c="dimmed" size="sm">{description}</Text>}
      </div>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
