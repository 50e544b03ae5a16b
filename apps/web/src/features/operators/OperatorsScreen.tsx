import { Stack } from '@mantine/core';
import { ListScreen } from '../../list/ListScreen.tsx';
import { operatorsList } from './declarations.tsx';
import { Invitations } from './Invitations.tsx';
import { OperatorActionsProvider } from './OperatorActions.tsx';

/** The Operators list (on the list engine), then the invite form and the pending invitations. */
export function OperatorsScreen() {
  return (
    <OperatorActionsProvider>
      <Stack gap="xl">
        <ListScreen declaration={operatorsList} />
        <Invitations />
      </Stack>
    </OperatorActionsProvider>
  );
}
