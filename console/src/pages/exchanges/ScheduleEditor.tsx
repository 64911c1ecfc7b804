import { Checkbox, Group, Table, TextInput } from '@mantine/core';

export interface DayHours { dayOfWeek: number; open: boolean; closed: boolean; openTime: string; closeTime: string }

export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The week as the API holds it: a day has hours, is marked closed, or is left out (no hours published). */
export function ScheduleEditor({ week, onChange, errors }: { week: DayHours[]; onChange: (week: DayHours[]) => void; errors: Record<string, string> }) {
  const set = (i: number, change: Partial<DayHours>) => onChange(week.map((d, j) => (j === i ? { ...d, ...change } : d)));
  return (
    <Table.ScrollContainer minWidth={560}>
    <Table aria-label="Weekly schedule" striped={false} withRowBorders={false}>
      <Table.Thead><Table.Tr><Table.Th>Day</Table.Th><Table.Th>Hours</Table.Th><Table.Th>Opens</Table.Th><Table.Th>Closes</Table.Th></Table.Tr></Table.Thead>
      <Table.Tbody>
        {week.map((d, i) => (
          <Table.Tr key={d.dayOfWeek} data-day={d.dayOfWeek}>
            <Table.Td>{DAYS[d.dayOfWeek - 1]}</Table.Td>
            <Table.Td>
              <Group gap="md" wrap="nowrap">
                <Checkbox label="Published" checked={d.open} onChange={(e) => set(i, { open: e.currentTarget.checked })} />
                <Checkbox label="Closed" checked={d.closed} disabled={!d.open} onChange={(e) => set(i, { closed: e.currentTarget.checked })} />
              </Group>
            </Table.Td>
            <Table.Td>
              <TextInput type="time" aria-label={`${DAYS[d.dayOfWeek - 1]} opens`} value={d.openTime} disabled={!d.open || d.closed}
                onChange={(e) => set(i, { openTime: e.currentTarget.value })} error={errors[`day.${d.dayOfWeek}.openTime`] ?? errors[`day.${d.dayOfWeek}`]} size="xs" />
            </Table.Td>
            <Table.Td>
              <TextInput type="time" aria-label={`${DAYS[d.dayOfWeek - 1]} closes`} value={d.closeTime} disabled={!d.open || d.closed}
                onChange={(e) => set(i, { closeTime: e.currentTarget.value })} error={errors[`day.${d.dayOfWeek}.closeTime`]} size="xs" />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
    </Table.ScrollContainer>
  );
}

export function weekOf(schedule: { dayOfWeek: number; openTime: string | null; closeTime: string | null; isClosed: boolean }[]): DayHours[] {
  return [1, 2, 3, 4, 5, 6, 7].map((day) => {
    const s = schedule.find((x) => x.dayOfWeek === day);
    return { dayOfWeek: day, open: Boolean(s), closed: s?.isClosed ?? false, openTime: s?.openTime?.slice(0, 5) ?? '09:00', closeTime: s?.closeTime?.slice(0, 5) ?? '18:00' };
  });
}

/**
 * The API numbers the days of the schedule it was sent, and only published days are sent: `schedule.1.openTime`
 * may be Wednesday's. The editor shows errors by day (`day.3.openTime`).
 */
export function scheduleErrorPlace(key: string, sent: { dayOfWeek: number }[]): string | undefined {
  const m = /^schedule\.(\d+)(\.\w+)?$/.exec(key);
  const day = m ? sent[Number(m[1])]?.dayOfWeek : undefined;
  return day === undefined ? undefined : `day.${day}${m![2] === '.dayOfWeek' ? '' : m![2] ?? ''}`;
}

export function scheduleOf(week: DayHours[]) {
  return week.filter((d) => d.open).map((d) => (d.closed ? { dayOfWeek: d.dayOfWeek, isClosed: true } : { dayOfWeek: d.dayOfWeek, openTime: d.openTime, closeTime: d.closeTime, isClosed: false }));
}
