/** Hash routes (#/chat/ID, #/timeline, #/facts, #/facts/ID, #/models, #/data): same in Electron and the browser. */
import { useEffect, useState } from 'react';

export type Route =
  | { screen: 'chat'; conversationId: string | null }
  | { screen: 'timeline' }
  | { screen: 'facts' }
  | { screen: 'fact'; id: string }
  | { screen: 'models' }
  | { screen: 'data' };

export type Screen = 'chat' | 'timeline' | 'facts' | 'models' | 'data';

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map((p) => decodeURIComponent(p));
  const [head, second] = parts;
  switch (head) {
    case 'timeline':
      return { screen: 'timeline' };
    case 'facts':
      return second ? { screen: 'fact', id: second } : { screen: 'facts' };
    case 'models':
      return { screen: 'models' };
    case 'data':
      return { screen: 'data' };
    default:
      return { screen: 'chat', conversationId: head === 'chat' && second ? second : null };
  }
}

export function hrefOf(route: Route): string {
  switch (route.screen) {
    case 'chat':
      return route.conversationId ? `#/chat/${encodeURIComponent(route.conversationId)}` : '#/chat';
    case 'fact':
      return `#/facts/${encodeURIComponent(route.id)}`;
    default:
      return `#/${route.screen}`;
  }
}

export const factHref = (id: string): string => hrefOf({ screen: 'fact', id });

export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const href = hrefOf(route);
  if (options.replace) window.history.replaceState(window.history.state, '', href);
  else window.location.hash = href;
  if (options.replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** The nav tab a route belongs to. */
export function screenOf(route: Route): Screen {
  return route.screen === 'fact' ? 'facts' : route.screen;
}
