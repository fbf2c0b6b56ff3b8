import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createClient } from './api/client';
import { ClientProvider } from './app/api-context';
import { createQueryClient } from './app/query-client';
import './styles/base.css';
import './styles/layout.css';
import './styles/chat.css';
import './styles/timeline.css';
import './styles/timeline-parts.css';
import './styles/facts.css';
import './styles/changes.css';
import './styles/models.css';
import './styles/review.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const client = createClient();
const queryClient = createQueryClient();

createRoot(container).render(
  <StrictMode>
    <ClientProvider client={client}>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </ClientProvider>
  </StrictMode>,
);
