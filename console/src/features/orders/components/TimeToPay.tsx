import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { when } from '../../../lib/format';

/** "12 min 05 s", "1 h 02 min": what is left of a payment window, to the second while under an hour. */
export function timeLeft(until: string, now: number): string {
  const seconds = Math.max(0, Math.floor((new Date(until).getTime() - now) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
  return `${Math.floor(minutes / 1440)} d ${Math.floor((minutes % 1440) / 60)} h`;
}

/**
 * The time the client has left to pay, ticking each second, and the moment the order is cancelled if unpaid. Once the
 * deadline has passed it says so: the worker cancels the order within seconds and the page's live updates show it.
 */
export function TimeToPay({ expiresAt }: { expiresAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const over = new Date(expiresAt).getTime() <= now;
  return (
    <>
      <Text span inherit c={over ? 'red' : undefined} fw={over ? 600 : undefined}>
        {over ? 'Expired: being cancelled' : timeLeft(expiresAt, now)}
      </Text>{' '}
      <Text span inherit c="dimmed">
        (until {when(expiresAt)})
      </Text>
    </>
  );
}
