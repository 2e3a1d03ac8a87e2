import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { OperationError } from './transport/transport';
import { settingsKeys } from './features/settings';
import './ui/styles.css';

/**
 * A 401 from any call means the browser's session ended (signed out elsewhere, its key revoked, its
 * time up): the app's first question is asked again, and its 401 shows the sign-in screen with why.
 */
const onSessionEnded = (error: Error) => {
  if (!(error instanceof OperationError) || error.code !== 401) return;
  // Already refused (the sign-in screen is up): asking again would only flicker it.
  if (queryClient.getQueryState(settingsKeys.appInfo)?.status === 'error') return;
  void queryClient.invalidateQueries({ queryKey: settingsKeys.appInfo });
};

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onSessionEnded }),
  mutationCache: new MutationCache({ onError: onSessionEnded }),
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a 5xx or a lost connection might.
      retry: (count, error) => count < 2 && !(error instanceof OperationError && error.code < 500),
      refetchOnWindowFocus: false,
    },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
