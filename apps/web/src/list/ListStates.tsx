import { Alert, Group, Loader, Stack, Text } from '@mantine/core';

/** The spinner with its text while a page loads. */
export function LoadingState() {
  return (
    <Group role="status" justify="center" gap="sm" py="xl">
      <Loader size="sm" />
      <Text c="dimmed">Loading...</Text>
    </Group>
  );
}

/** The screen's error sentence in a red alert. */
export function ErrorState({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" role="alert" title="Error">
      {message}
    </Alert>
  );
}

/** No rows: the screen's sentence (with or without filters) and what to try next. */
export function EmptyState({ message }: { message: string }) {
  return (
    <Stack align="center" gap={4} py="xl">
      <Text fw={500}>{message}</Text>
      <Text c="dimmed" size="sm">
        Try searching with different criteria
      </Text>
    </Stack>
  );
}
