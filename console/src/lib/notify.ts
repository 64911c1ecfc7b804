import { notifications } from '@mantine/notifications';
import { ApiError, ConnectionError } from './api/errors';

/** A notice that says what to do, for the failures that are not about one field. */
export function showError(err: unknown, title = 'Not done'): void {
  if (showTransient(err)) return;
  if (err instanceof ApiError && err.status === 401) return; // the login page explains
  showRefusal(err instanceof Error ? err.message : String(err), title);
}

export function showRefusal(message: string, title = 'Not done'): void {
  notifications.show({ color: 'red', title, message, autoClose: 8000 });
}

/** A lost connection or a rate limit: the same notice once, however many requests met it. True when it was one. */
export function showTransient(err: unknown): boolean {
  if (err instanceof ConnectionError) {
    notifications.show({
      id: 'connection',
      color: 'orange',
      title: 'Connection lost',
      message:
        'The service could not be reached. Check the network connection, then try again: a change you just made may not have been saved.',
      autoClose: 10_000,
    });
    return true;
  }
  if (err instanceof ApiError && err.status === 429) {
    const wait = err.retryAfter ?? err.body?.retryAfter ?? null;
    notifications.show({
      id: 'rate-limit',
      color: 'orange',
      title: 'Too many requests',
      message: wait ? `Wait ${wait} seconds, then try again.` : 'Wait a moment, then try again.',
      autoClose: 10_000,
    });
    return true;
  }
  return false;
}

export function showDone(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 3000 });
}
