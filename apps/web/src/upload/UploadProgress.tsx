import { Paper, Progress, Stack, Text } from '@mantine/core';
import type { ImportRecord } from '@obd/contract';
import { bytesText, countText } from './format.ts';

export type ProgressView =
  | { stage: 'sending'; sent: number; total: number }
  | { stage: 'processing'; record?: ImportRecord };

/** The percentage and the sentence under the bar for one moment of an upload. */
export function progressText(view: ProgressView): { percent: number; label: string; detail: string } {
  if (view.stage === 'sending') {
    const percent = view.total > 0 ? Math.min(100, Math.round((100 * view.sent) / view.total)) : 0;
    return {
      percent,
      label: `Uploading… ${percent}%`,
      detail: `${bytesText(view.sent)} of ${bytesText(view.total)} sent`,
    };
  }
  const record = view.record;
  if (!record) return { percent: 0, label: 'Processing…', detail: 'The server is reading the file' };
  const percent = Math.max(0, Math.min(100, record.progress));
  if (record.phase === 'writing') {
    const of = record.rowsTotal === null ? '' : ` of ${countText(record.rowsTotal)}`;
    return {
      percent,
      label: `Saving rows… ${percent}%`,
      detail: `${countText(record.rowsProcessed)}${of} rows written`,
    };
  }
  return {
    percent,
    label: `Reading the file… ${percent}%`,
    detail: `${countText(record.rowsProcessed)} rows read`,
  };
}

/** Two bars in one: the bytes sent, then the rows the server has done. */
export function UploadProgress({ view }: { view: ProgressView }) {
  const { percent, label, detail } = progressText(view);
  const waiting = view.stage === 'processing' && !view.record;
  return (
    <Paper withBorder radius="md" p="md" data-testid="upload-progress">
      <Stack gap="xs">
        <Text fw={600}>{label}</Text>
        <Progress
          value={waiting ? 100 : percent}
          striped={view.stage === 'processing'}
          animated={view.stage === 'processing'}
          size="lg"
          color={view.stage === 'sending' ? 'blue' : 'teal'}
          aria-label={label}
        />
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      </Stack>
    </Paper>
  );
}
