import { Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { dateTimeText } from '../../list/format.ts';

/** 'in 7 days', 'in 23 hours', 'in 5 minutes' from now (or 'expired'). */
export function untilText(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  if (!Number.isFinite(ms)) return '';
  if (ms <= 0) return 'expired';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  const days = Math.round(hours / 24);
  return `in ${days} days`;
}

/** A time and how far off it is: '2026-11-30 08:06:27 UTC (in 7 days)'. */
export function expiryText(iso: string): string {
  const until = untilText(iso);
  return `${dateTimeText(iso)} UTC${until ? ` (${until})` : ''}`;
}

/** A read-only value with a Copy button that says when it has copied. */
export function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        value={value}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
        style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Button variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} onClick={copy}>
            {copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * A one-time code as the server gave it (it is never shown again), its expiry, and optionally a
 * link carrying it: each copyable.
 */
export function OneTimeCode({
  code,
  expiresAt,
  link,
  note,
}: {
  code: string;
  expiresAt: string;
  link?: string;
  /** What to do with it, e.g. 'Send the link to the person you invite.' */
  note: string;
}) {
  return (
    <Stack gap="sm" data-testid="one-time-code">
      <CopyField label="Code" value={code} />
      {link && <CopyField label="Link" value={link} />}
      <Text size="sm">{`Expires ${expiryText(expiresAt)}.`}</Text>
      <Text size="sm" c="dimmed">
        {`${note} It is shown only once.`}
      </Text>
    </Stack>
  );
}
