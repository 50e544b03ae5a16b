import { Box, Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ColorSchemeToggle } from '../../app/ColorSchemeToggle.tsx';
import { ApiError } from '../../lib/api.ts';

/** The centred card of the login and sign-up screens. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size={420} py={80}>
      {/* The light/dark switch, as in the app's header. */}
      <Box pos="absolute" top={16} right={16}>
        <ColorSchemeToggle />
      </Box>
      <Stack gap="lg">
        <Stack gap={4} align="center">
          <Text fw={700} c="blue" size="lg">
            OBD Admin
          </Text>
          <Title order={1} size="h2">
            {title}
          </Title>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          {children}
        </Paper>
      </Stack>
    </Container>
  );
}

/** The server's sentence for a failed call (spec §2.3); the screen's fallback when it sent none. */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.isServerMessage ? error.message : fallback;
}
