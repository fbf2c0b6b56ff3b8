/**
 * The nav's small line icons: below ~1,000 px the nav folds to them (its labels stay in the page,
 * visually hidden, so each link keeps its name; the title is the tooltip). A screen without an
 * icon of its own gets a plain dot.
 */
const PATHS: Record<string, string> = {
  chat: 'M4 5h16v10H9l-5 4z',
  timeline: 'M4 7h9M7 12h13M4 17h7M4 4v16',
  facts: 'M5 6h14M5 12h14M5 18h9',
  changes: 'M12 4v16M7 9l5-5 5 5M7 15l5 5 5-5',
  models: 'M7 7h10v10H7zM10 3v4M14 3v4M10 17v4M14 17v4M3 10h4M3 14h4M17 10h4M17 14h4',
  data: 'M12 3v12M7 10l5 5 5-5M4 19h16',
  review: 'M5 12l4 4 10-10',
  settings: 'M12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7zM12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1',
};
const DOT = 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z';

export function NavIcon({ screen }: { screen: string }) {
  return (
    <svg className="nav-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={PATHS[screen] ?? DOT} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
