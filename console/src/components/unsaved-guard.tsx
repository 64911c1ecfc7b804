import { Button, Group, List, Modal, Text } from '@mantine/core';
import { useEffect, useId, useSyncExternalStore } from 'react';
import { useBlocker } from 'react-router';

/**
 * The edits not yet saved, by form: a module's store rather than a React context, since a form opened with
 * `modals.open` renders outside the router and its providers, and its edits count all the same.
 */
const unsaved = new Map<string, string>();
const listeners = new Set<() => void>();
let lost: string[] = [];

function changed() {
  lost = [...unsaved.values()];
  for (const l of listeners) l();
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * A form's edits not yet saved: while `dirty`, leaving the page asks first and reloading or closing the tab gets the
 * browser's own prompt. `what` names what would be lost ("Central Exchange: weekly hours").
 *
 * Returns `saved()`, for a handler that navigates right after a successful save: the form's state is clean only
 * from its next render, and the navigation must not ask about edits just saved.
 */
export function useUnsavedChanges(dirty: boolean, what: string): () => void {
  const id = useId();
  useEffect(() => {
    if (!dirty) return undefined;
    unsaved.set(id, what);
    changed();
    return () => {
      unsaved.delete(id);
      changed();
    };
  }, [id, dirty, what]);
  return () => {
    if (unsaved.delete(id)) changed();
  };
}

function beforeUnload(event: BeforeUnloadEvent) {
  if (unsaved.size === 0) return;
  event.preventDefault();
  // Browsers before the standard's preventDefault ask only when returnValue is set.
  event.returnValue = true;
}

/**
 * Asks before a navigation inside the console (a link, the menu, Back) leaves a page with unsaved edits: Stay is
 * the default, so Enter or Escape keeps them. Changes of the address's query alone stay on the page and pass.
 */
export function UnsavedGuard() {
  const names = useSyncExternalStore(subscribe, () => lost);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved.size > 0 && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, []);
  const stay = () => blocker.reset?.();
  // Above any dialog the edits may be in (a staff user's, a new key's).
  return (
    <Modal opened={blocker.state === 'blocked'} onClose={stay} title="Leave without saving?" zIndex={400}>
      <Text size="sm">These edits are not saved and would be lost:</Text>
      <List size="sm" mt="xs">
        {names.map((name, i) => (
          <List.Item key={i}>{name}</List.Item>
        ))}
      </List>
      <Group justify="flex-end" mt="md">
        <Button variant="light" color="red" onClick={() => blocker.proceed?.()}>
          Leave
        </Button>
        <Button onClick={stay} data-autofocus>
          Stay
        </Button>
      </Group>
    </Modal>
  );
}
