import { Badge, type BadgeProps } from '@mantine/core';

/** A test order of a sandbox branch: the partner may move it itself, and no money changes hands. */
export function SandboxBadge(props: BadgeProps) {
  return (
    <Badge color="grape" variant="outline" title="A test order placed in a sandbox branch" data-sandbox {...props}>
      Sandbox
    </Badge>
  );
}
