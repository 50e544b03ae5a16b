import { Anchor, Stack, Text } from '@mantine/core';
import { HOME_PATH } from '../lib/session.ts';
import { Link } from './navigation.tsx';

/** A guarded address no screen is registered for. */
export function NotFoundScreen() {
  return (
    <Stack gap="xs">
      <Text>This page does not exist.</Text>
      <Anchor component={Link} to={HOME_PATH}>
        Go to the Users Table
      </Anchor>
    </Stack>
  );
}
