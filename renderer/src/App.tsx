/** The window: navigation, the connection banner and the current screen; keeps the query cache current. */
import { useEffect } from 'react';
import { ConnectionBanner } from './app/ConnectionBanner';
import { Nav, screenForShortcut } from './app/Nav';
import { useQueryInvalidation } from './app/query-invalidation';
import { navigate, screenOf, useRoute, type Route } from './app/router';
import { ScreenErrorBoundary } from './app/ScreenErrorBoundary';
import { ChangesScreen } from './changes/ChangesScreen';
import { ChatScreen } from './chat/ChatScreen';
import { DataScreen } from './data/DataScreen';
import { FactPage } from './facts/FactPage';
import { FactsScreen } from './facts/FactsScreen';
import { ModelsScreen } from './models/ModelsScreen';
import { ReviewScreen } from './review/ReviewScreen';
import { SettingsScreen } from './settings/SettingsScreen';
import { TimelineScreen } from './timeline/TimelineScreen';

function ScreenOf({ route }: { route: Route }) {
  switch (route.screen) {
    case 'chat':
      return <ChatScreen conversationId={route.conversationId} messageId={route.messageId ?? null} />;
    case 'timeline':
      return <TimelineScreen />;
    case 'facts':
      return <FactsScreen />;
    case 'changes':
      return <ChangesScreen />;
    case 'fact':
      return <FactPage key={route.id} id={route.id} />;
    case 'models':
      return <ModelsScreen />;
    case 'data':
      return <DataScreen />;
    case 'review':
      return <ReviewScreen />;
    case 'settings':
      return <SettingsScreen />;
  }
}

export function App() {
  const route = useRoute();
  useQueryInvalidation();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const screen = screenForShortcut(event.key);
      if (!screen) return;
      event.preventDefault();
      navigate(screen === 'chat' ? { screen, conversationId: null } : { screen });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="shell">
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <Nav current={screenOf(route)} />
      <div className="shell-main">
        <ConnectionBanner />
        <main id="main" className="screen" tabIndex={-1}>
          <ScreenErrorBoundary resetKey={JSON.stringify(route)}>
            <ScreenOf route={route} />
          </ScreenErrorBoundary>
        </main>
      </div>
    </div>
  );
}
