import { Button, Group, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import {
  isValidRange,
  PERIOD_LABELS,
  PERIOD_PRESETS,
  type Period,
  type PeriodPreset,
  presetDays,
  utcToday,
} from './period.ts';

/** The Overview's period: a preset, or a custom range of days applied with 'Show'. */
export function PeriodPicker({ period, onChange }: { period: Period; onChange: (next: Period) => void }) {
  const [custom, setCustom] = useState(period.preset === 'custom');
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const valid = isValidRange(from, to);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onChange({ preset: 'custom', from, to });
  };
  return (
    <Stack gap={6} align="flex-end">
      <SegmentedControl
        aria-label="Period"
        value={custom ? 'custom' : period.preset}
        onChange={(value) => {
          const preset = PERIOD_PRESETS.find((p) => p === value) as PeriodPreset;
          if (preset === 'custom') return setCustom(true);
          setCustom(false);
          onChange({ preset, ...presetDays(preset, utcToday()) });
        }}
        data={PERIOD_PRESETS.map((value) => ({ value, label: PERIOD_LABELS[value] }))}
      />
      {custom && (
        <Group component="form" onSubmit={apply} gap="xs" align="flex-end">
          <TextInput
            type="date"
            size="xs"
            label="From"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            size="xs"
            label="To"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={from && to && !valid ? 'From must be on or before To' : undefined}
          />
          <Button type="submit" size="xs" disabled={!valid}>
            Show
          </Button>
        </Group>
      )}
    </Stack>
  );
}
