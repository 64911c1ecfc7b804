import { Alert, Anchor, Badge, Group, Paper, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from '../../../lib/api/types';
import { grouped, when } from '../../../lib/format';

/** The webhooks failing or deactivated, as Home lists them. */
export function WebhooksInTrouble({ hooks }: { hooks: NonNullable<Dashboard['webhooksInTrouble']> }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="hooks-title">
      <Title order={2} size="h4" id="hooks-title" mb="xs">
        Webhooks in trouble
      </Title>
      {hooks.length === 0 ? (
        <Alert color="teal" variant="light">
          Every webhook is delivering.
        </Alert>
      ) : (
        <Stack gap="xs">
          {hooks.map((h) => (
            <Group key={h.id} gap="xs">
              <Anchor component={Link} to={`/webhooks/${h.id}`} size="sm">
                {h.url}
              </Anchor>
              {h.isActive ? (
                <Badge color="orange" variant="light">
                  {grouped(h.failCount)} failed in a row
                </Badge>
              ) : (
                <Badge color="red" variant="light">
                  deactivated {when(h.deactivatedAt)}
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
