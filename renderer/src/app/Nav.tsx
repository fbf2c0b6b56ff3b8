/**
 * The main navigation: one link per screen; the current one is marked for screen readers too.
 * Review shows how many learned messages wait for the user's word (only while any do, or the
 * setting is on).
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from './api-context';
import { memoryKeys } from './query-keys';
import { NavIcon } from './NavIcon';
import { hrefOf, type Screen } from './router';
import { ThemeToggle } from './ThemeToggle';

const ITEMS: { screen: Screen; label: string; key: string }[] = [
  { screen: 'chat', label: 'Chat', key: '1' },
  { screen: 'timeline', label: 'Timeline', key: '2' },
  { screen: 'facts', label: 'Facts', key: '3' },
  { screen: 'changes', label: 'Changes', key: '7' },
  { screen: 'models', label: 'Models', key: '4' },
  { screen: 'data', label: 'Export / Import', key: '5' },
  { screen: 'review', label: 'Review', key: '6' },
  { screen: 'settings', label: 'Settings', key: '9' },
];

function useReviewWaiting(): { on: boolean; waiting: number } {
  const api = useApi();
  const settings = useQuery({ queryKey: [...memoryKeys.all, 'review', 'settings'], queryFn: () => api.reviewSettings({}) });
  return { on: settings.data?.reviewBeforeRemembering ?? false, waiting: settings.data?.waiting ?? 0 };
}

export function Nav({ current }: { current: Screen }) {
  const review = useReviewWaiting();
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">◷</span> <span className="nav-label">Tempora</span>
      </div>
      <ul>
        {ITEMS.map((item) => (
          <li key={item.screen}>
            <a
              href={hrefOf(item.screen === 'chat' ? { screen: 'chat', conversationId: null } : { screen: item.screen })}
              aria-current={current === item.screen ? 'page' : undefined}
              aria-keyshortcuts={`Alt+${item.key}`}
              title={`${item.label} (Alt+${item.key})`}
            >
              <NavIcon screen={item.screen} />
              <span className="nav-label">{item.label}</span>
              {item.screen === 'review' && review.waiting > 0 && (
                <span className="nav-count" aria-label={`, ${review.waiting} waiting`} data-testid="review-count">
                  {review.waiting}
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
      <ThemeToggle />
    </nav>
  );
}

/** Alt+1…7 (and 9 for Settings) switch screens. */
export function screenForShortcut(key: string): Screen | null {
  return ITEMS.find((item) => item.key === key)?.screen ?? null;
}
