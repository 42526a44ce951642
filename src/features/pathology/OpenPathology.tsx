import { useTranslation } from 'react-i18next';
import { useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { pathologyEditorCommands, pathologyWorklistCommands, type PathologyCtx } from './commands';
import { NoPathologyAddress, openPathology } from './open';

export interface OpenPathologyProps {
  /** The exam in hand, or null (an empty worklist). */
  exam: { id: number } | null;
  place: 'editor' | 'worklist';
}

/**
 * The pathology command for the exam in hand (core §2 navbar "pathology", opened with the exam's context): shown only
 * when one of the account's groups has a pathologyUrl. The app puts it into the workspace and the worklist.
 */
export function OpenPathology({ exam, place }: OpenPathologyProps) {
  const { t } = useTranslation();
  const { groups } = useSession();
  const ctx: PathologyCtx = {
    available: exam !== null && groups.some((g) => g.pathologyUrl),
    open: () => {
      if (!exam) return;
      openPathology(groups, exam.id).catch((error: unknown) => toasts.show({ message: error instanceof NoPathologyAddress ? t('pathology.notConfigured') : errorText(t, error), kind: 'error' }));
    },
  };
  useCommands(place === 'editor' ? pathologyEditorCommands : pathologyWorklistCommands, ctx);
  return null;
}
