import { Text } from '@mantine/core';

/** The placeholder of a screen a later issue builds. */
export function NotBuiltScreen({ name }: { name: string }) {
  return <Text>{`${name} is not built yet.`}</Text>;
}
