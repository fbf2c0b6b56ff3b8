/**
 * Hash routes (#/chat/ID, #/chat/ID/MESSAGE_ID, #/timeline, #/facts, #/facts/ID, #/changes, #/review, #/models,
 * #/settings, #/settings/parked (#/models/parked, its old address, too), #/data): same in Electron and the browser.
 */
import { useEffect, useState } from 'react';

export type Route =
  /** messageId: scroll to that message and highlight it. */
  | { screen: 'chat'; conversationId: string | null; messageId?: string | null }
  | { screen: 'timeline' }
  | { screen: 'facts' }
  /** What changed: the feed of changes by month. */
  | { screen: 'changes' }
  | { screen: 'fact'; id: string }
  | { screen: 'models' }
  /** section 'parked': the list of messages that could not be learned. */
  | { screen: 'settings'; section?: 'parked' }
  | { screen: 'data' }
  /** Learned messages waiting for review before they are remembered. */
  | { screen: 'review' };

export type Screen = 'chat' | 'timeline' | 'facts' | 'changes' | 'review' | 'models' | 'data' | 'settings';

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map((p) => decodeURIComponent(p));
  const [head, second, third] = parts;
  switch (head) {
    case 'timeline':
      return { screen: 'timeline' };
    case 'facts':
      return second ? { screen: 'fact', id: second } : { screen: 'facts' };
    case 'changes':
      return { screen: 'changes' };
    case 'models':
      return second === 'parked' ? { screen: 'settings', section: 'parked' } : { screen: 'models' };
    case 'settings':
      return second === 'parked' ? { screen: 'settings', section: 'parked' } : { screen: 'settings' };
    case 'data':
      return { screen: 'data' };
    case 'review':
      return { screen: 'review' };
    default:
      return head === 'chat' && second && third ? { screen: 'chat', conversationId: second, messageId: third } : { screen: 'chat', conversationId: head === 'chat' && second ? second : null };
  }
}

export function hrefOf(route: Route): string {
  switch (route.screen) {
    case 'chat':
      if (!route.conversationId) return '#/chat';
      return `#/chat/${encodeURIComponent(route.conversationId)}${route.messageId ? `/${encodeURIComponent(route.messageId)}` : ''}`;
    case 'settings':
      return route.section ? `#/settings/${route.section}` : '#/settings';
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
    const update = () =>
      setRoute((shown) => {
        const next = parseHash(window.location.hash);
        return JSON.stringify(next) === JSON.stringify(shown) ? shown : next;
      });
    window.addEventListener('hashchange', update);
    // A hash set between the first render and this listener would be lost: read it once more.
    update();
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** The nav tab a route belongs to. */
export function screenOf(route: Route): Screen {
  return route.screen === 'fact' ? 'facts' : route.screen;
}
