import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../contract/constants';
import { currentLanguage, isLanguage, setLanguage } from '@/lib/i18n';
import { GlobeIcon } from '@/ui/icons';

/** Core §1: chs, en, tib; the choice is remembered and <html lang> follows. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const value = isLanguage(i18n.language) ? i18n.language : currentLanguage();
  return (
    <label className="flex items-center gap-1 text-fg-muted">
      <GlobeIcon />
      <span className="sr-only">{t('nav.language')}</span>
      <select
        value={value}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void setLanguage(event.target.value);
        }}
        className={`h-8 cursor-pointer rounded-md border border-transparent bg-transparent pr-1 text-sm text-fg-muted hover:border-line hover:text-fg ${compact ? '' : 'pl-1'}`}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng}>
            {t(`languages.${lng}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
