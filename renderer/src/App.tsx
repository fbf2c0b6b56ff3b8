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
  const screen = screenOf(route);
  useQueryInvalidation();
  // A screen chosen in the navigation takes the keyboard's focus (the next Tab is its first control,
  // not the next link), unless it took the focus itself on showing. Its own effects ran first.
  useEffect(() => {
    if (document.activeElement?.closest('nav.nav')) document.getElementById('main')?.focus({ preventScroll: true });
  }, [screen]);
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
      <Nav current={screen} />
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
