import { useTranslation } from 'react-i18next';
import { navigate } from '@/lib/session';
import type { KbCommandContext } from './commands';
import { kbPath } from './paths';

/**
 * The knowledge base's bar: its title (which names the tree), the organisation when there are several, and for a
 * writer the toolbar of the palette's commands with their keys.
 */
export function KbHeader({ titleId, orgs, bucketId, writable, hasCurrent, actions }: {
  titleId: string; orgs: { id: number; name: string }[]; bucketId: number; writable: boolean; hasCurrent: boolean;
  actions: Pick<KbCommandContext, 'newText' | 'newFolder' | 'linkTemplate' | 'moveTo' | 'rename' | 'remove'>;
}) {
  const { t } = useTranslation();
  return (
    <header className="flex flex-wrap items-center gap-3 border-b border-line bg-surface px-4 py-2">
      <h1 className="text-base font-semibold" id={titleId}>{t('kb.page.title')}</h1>
      {orgs.length > 1 && (
        <label className="flex items-center gap-2 text-[13px] text-fg-muted">
          {t('kb.page.organisation')}
          <select className="input h-7 w-auto py-0" value={bucketId} onChange={(e) => navigate(kbPath(Number(e.target.value)))}>
            {orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
          </select>
        </label>
      )}
      {writable && (
        <div className="ml-auto flex flex-wrap gap-1.5" role="toolbar" aria-label={t('kb.page.toolbar')}>
          <button type="button" className="btn" onClick={actions.newText} title="N">{t('kb.commands.newText')}</button>
          <button type="button" className="btn" onClick={actions.newFolder} title="Shift+N">{t('kb.commands.newFolder')}</button>
          <button type="button" className="btn" onClick={actions.linkTemplate} title="T">{t('kb.commands.linkTemplate')}</button>
          <button type="button" className="btn" onClick={actions.moveTo} disabled={!hasCurrent} title="M">{t('kb.commands.moveTo')}</button>
          <button type="button" className="btn" onClick={actions.rename} disabled={!hasCurrent} title="F2">{t('kb.commands.rename')}</button>
          <button type="button" className="btn" onClick={actions.remove} disabled={!hasCurrent} title="Delete">{t('kb.commands.delete')}</button>
        </div>
      )}
    </header>
  );
}
