/** The main navigation: one link per screen; the current one is marked for screen readers too. */
import { hrefOf, type Screen } from './router';
import { ThemeToggle } from './ThemeToggle';

const ITEMS: { screen: Screen; label: string; key: string }[] = [
  { screen: 'chat', label: 'Chat', key: '1' },
  { screen: 'timeline', label: 'Timeline', key: '2' },
  { screen: 'facts', label: 'Facts', key: '3' },
  { screen: 'models', label: 'Models', key: '4' },
  { screen: 'data', label: 'Export / Import', key: '5' },
];

export function Nav({ current }: { current: Screen }) {
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">◷</span> Tempora
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
              {item.label}
            </a>
          </li>
        ))}
      </ul>
      <ThemeToggle />
    </nav>
  );
}

/** Alt+1…5 switch screens. */
export function screenForShortcut(key: string): Screen | null {
  return ITEMS.find((item) => item.key === key)?.screen ?? null;
}
