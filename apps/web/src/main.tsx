import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/AppProviders.tsx';
import { BrowserRouter } from './app/navigation.tsx';
import { createQueryClient } from './app/queryClient.ts';
import { AppRoutes } from './app/router.tsx';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();

createRoot(rootElement).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes queryClient={queryClient} />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
