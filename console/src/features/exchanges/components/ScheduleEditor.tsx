import { Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { usePhone } from '../../../lib/use-phone';

export interface DayHours {
  dayOfWeek: number;
  open: boolean;
  closed: boolean;
  openTime: string;
  closeTime: string;
}

/** The editor's words for the API's names of a day's times, as its messages mention them ("must be after openTime 09:00"). */
export const SCHEDULE_WORDS = { openTime: 'the opening time', closeTime: 'the closing time' };

export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * The week as the API holds it: a day has hours, is marked closed, or is left out (no hours published). A table
 * on wider screens; on a phone, where its four columns do not fit, a card a day with the same controls.
 */
export function ScheduleEditor({
  week,
  onChange,
  errors,
}: {
  week: DayHours[];
  onChange: (week: DayHours[]) => void;
  errors: Record<string, string>;
}) {
  const phone = usePhone();
  const set = (i: number, change: Partial<DayHours>) =>
    onChange(week.map((d, j) => (j === i ? { ...d, ...change } : d)));
  const controls = (d: DayHours, i: number) => {
    const day = DAYS[d.dayOfWeek - 1];
    // On a phone no column header says which time is which: the inputs show it themselves.
    const time = (which: 'openTime' | 'closeTime', words: string, error: string | undefined) => (
      <TextInput
        type="time"
        aria-label={`${day} ${words.toLowerCase()}`}
        label={phone ? words : undefined}
        value={d[which]}
        disabled={!d.open || d.closed}
        onChange={(e) => set(i, { [which]: e.currentTarget.value })}
        error={error}
        size="xs"
      />
    );
    return {
      day,
      marks: (
        <Group gap="md" wrap="nowrap">
          <Checkbox label="Published" checked={d.open} onChange={(e) => set(i, { open: e.currentTarget.checked })} />
          <Checkbox
            label="Closed"
            checked={d.closed}
            disabled={!d.open}
            onChange={(e) => set(i, { closed: e.currentTarget.checked })}
          />
        </Group>
      ),
      opens: time('openTime', 'Opens', errors[`day.${d.dayOfWeek}.openTime`] ?? errors[`day.${d.dayOfWeek}`]),
      closes: time('closeTime', 'Closes', errors[`day.${d.dayOfWeek}.closeTime`]),
    };
  };
  if (phone) {
    return (
      <Stack gap="xs" role="group" aria-label="Weekly schedule">
        {week.map((d, i) => {
          const c = controls(d, i);
          return (
            <Paper key={d.dayOfWeek} data-day={d.dayOfWeek} withBorder p="xs">
              <Group justify="space-between" gap="xs" mb={4}>
                <Text fw={600} size="sm">
                  {c.day}
                </Text>
                {c.marks}
              </Group>
              <SimpleGrid cols={2} spacing="xs">
                {c.opens}
                {c.closes}
              </SimpleGrid>
            </Paper>
          );
        })}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Weekly schedule" striped={false} withRowBorders={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Day</Table.Th>
            <Table.Th>Hours</Table.Th>
            <Table.Th>Opens</Table.Th>
            <Table.Th>Closes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {week.map((d, i) => {
            const c = controls(d, i);
            return (
              <Table.Tr key={d.dayOfWeek} data-day={d.dayOfWeek}>
                <Table.Td>{c.day}</Table.Td>
                <Table.Td>{c.marks}</Table.Td>
                <Table.Td>{c.opens}</Table.Td>
                <Table.Td>{c.closes}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function weekOf(
  schedule: { dayOfWeek: number; openTime: string | null; closeTime: string | null; isClosed: boolean }[],
): DayHours[] {
  return [1, 2, 3, 4, 5, 6, 7].map((day) => {
    const s = schedule.find((x) => x.dayOfWeek === day);
    return {
      dayOfWeek: day,
      open: Boolean(s),
      closed: s?.isClosed ?? false,
      openTime: s?.openTime?.slice(0, 5) ?? '09:00',
      closeTime: s?.closeTime?.slice(0, 5) ?? '18:00',
    };
  });
}

/**
 * The API numbers the days of the schedule it was sent, and only published days are sent: `schedule.1.openTime`
 * may be Wednesday's. The editor shows errors by day (`day.3.openTime`).
 */
export function scheduleErrorPlace(key: string, sent: { dayOfWeek: number }[]): string | undefined {
  const m = /^schedule\.(\d+)(\.\w+)?$/.exec(key);
  const day = m ? sent[Number(m[1])]?.dayOfWeek : undefined;
  return day === undefined ? undefined : `day.${day}${m![2] === '.dayOfWeek' ? '' : (m![2] ?? '')}`;
}

export function scheduleOf(week: DayHours[]) {
  return week
    .filter((d) => d.open)
    .map((d) =>
      d.closed
        ? { dayOfWeek: d.dayOfWeek, isClosed: true }
        : { dayOfWeek: d.dayOfWeek, openTime: d.openTime, closeTime: d.closeTime, isClosed: false },
    );
}
