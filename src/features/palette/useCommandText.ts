import { useTranslation } from 'react-i18next';
import type { Command, Scope } from '@/lib/commands';

/**
 * Texts of registered commands. Their labels are i18n keys held as plain strings (features declare them as
 * data), which the typed `t` cannot check at compile time; the catalog test checks them in all three files.
 */
export function useCommandText() {
  const { t } = useTranslation();
  const text = t as unknown as (key: string) => string;
  return {
    label: (command: Command) => text(command.label),
    heading: (command: Command) => text(command.section ?? scopeLabelKey(command.scope)),
    scope: (scope: Scope) => text(scopeLabelKey(scope)),
  };
}

function scopeLabelKey(scope: Scope): string {
  return `commands.scopes.${scope}`;
}
