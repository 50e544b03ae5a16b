import { Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { ListScreen } from '../../list/ListScreen.tsx';
import { LoadingState } from '../../list/ListStates.tsx';
import { operatorsList } from './declarations.tsx';
import { OperatorActionsProvider } from './OperatorActions.tsx';

// The invite form and the pending invitations, under the list, are fetched as the screen draws,
// beside the list's first request (issue 14): their number input (react-number-format) and the
// copyable one-time code, ~12 kB gzip, are not in the screen's first download.
const Invitations = lazy(() => import('./Invitations.tsx').then((m) => ({ default: m.Invitations })));

/** The Operators list (on the list engine), then the invite form and the pending invitations. */
export function OperatorsScreen() {
  return (
    <OperatorActionsProvider listTitle={operatorsList.title}>
      <Stack gap="xl">
        <ListScreen declaration={operatorsList} />
        <Suspense fallback={<LoadingState />}>
          <Invitations />
        </Suspense>
      </Stack>
    </OperatorActionsProvider>
  );
}
