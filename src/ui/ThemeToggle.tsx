import { useTranslation } from 'react-i18next';
import { useTheme } from '@/lib/theme';
import { MoonIcon, SunIcon } from '@/ui/icons';

export function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = next === 'dark' ? t('shell.switchToDark') : t('shell.switchToLight');
  return (
    <button type="button" className="icon-button size-8" onClick={() => setTheme(next)} aria-label={label} title={label}>
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
