import { Group, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A page's title and what goes beside it. With `focusKey`, the title takes the focus when it appears and whenever the
 * key changes (another order opened): a screen reader says where the user now is, and Tab goes on from there.
 */
export function PageHeader({
  title,
  description,
  children,
  focusKey,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
  focusKey?: string | number;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusKey !== undefined) heading.current?.focus();
  }, [focusKey]);
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
      <div>
        <Title order={1} size="h2" ref={heading} tabIndex={focusKey === undefined ? undefined : -1}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </div>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
