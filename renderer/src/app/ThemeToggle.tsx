import { nextTheme, useTheme, type ThemeChoice } from './theme';

const LABELS: Record<ThemeChoice, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };
const ICONS: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

export function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  return (
    <button type="button" className="theme-toggle" onClick={() => setTheme(nextTheme(theme))} title={`${LABELS[theme]} (click to change)`} aria-label={`${LABELS[theme]}. Change theme`}>
      <span aria-hidden="true">{ICONS[theme]}</span> <span className="nav-label">{theme}</span>
    </button>
  );
}
