import { useApp, type ThemeChoice } from '../stores/app-store';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'dark', dark: 'light', light: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'Theme: system', dark: 'Theme: dark', light: 'Theme: light' };

export function ThemeSwitch() {
  const theme = useApp((s) => s.theme);
  const setTheme = useApp((s) => s.setTheme);
  return (
    <button
      type="button"
      className="theme-switch"
      onClick={() => setTheme(NEXT[theme])}
      aria-label={`${LABEL[theme]}. Change theme`}
    >
      {LABEL[theme]}
    </button>
  );
}
