import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Organization } from '../../../../../contract/organizations';
import { SAMPLE_GRAPH_TYPES, type SampleGraph } from '../../../../../contract/sampleGraphs';
import { CommandScope, useCommands } from '@/lib/commands';
import { formatBytes } from '@/lib/format';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { ErrorNote } from '../../group/settings/parts';
import { LoadState } from '@/ui/LoadState';
import { useWrite } from '../../ui/useWrite';
import { preIdFor, sampleGraphsApi } from './api';
import { sampleGraphListCommands } from './commands';
import { SampleGraphEditor } from './Editor';

/**
 * /groups/{g}/organizations/{o}/sampleGraphs (areas §3 "Sample graph", §6 manage_sample_graph): the organisation's
 * reference drawings as a grid, an upload, and the editor of the chosen one. Members see them; managers (the action, or
 * the organisation's administrators) upload, mark points, re-order and delete.
 */
export function OrganizationSampleGraphs({ org, canManage }: { org: Organization; canManage: boolean }) {
  const { t } = useTranslation();
  const list = useLoad(`admin:org:${org.id}:sample-graphs`, (signal) => sampleGraphsApi.list(org.id, { signal }));
  const limit = useLoad('global-configs:sampleGraphMaxMb', (signal) => sampleGraphsApi.maxBytes({ signal }));
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [asked, setAsked] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<SampleGraph | null>(null);
  const dirty = useRef(false);
  const uploadName = useRef<HTMLInputElement>(null);
  const { busy, run } = useWrite();
  const graphs = list.data ?? [];
  const chosen = graphs.find((g) => g.id === chosenId) ?? graphs[0] ?? null;
  const onDirty = useCallback((d: boolean) => { dirty.current = d; }, []);
  useCommands(sampleGraphListCommands, { upload: () => uploadName.current?.focus(), canManage });

  const choose = (id: number) => {
    if (id === chosen?.id) return;
    if (dirty.current) setAsked(id);
    else setChosenId(id);
  };
  const move = async (graph: SampleGraph, step: -1 | 1) => {
    const preId = preIdFor(graphs.map((g) => g.id), graph.id, step);
    if (preId === undefined) return;
    if (await run(() => sampleGraphsApi.resort(graph.id, preId))) list.reload();
  };

  return (
    <CommandScope scope="sampleGraphs">
      <div className="flex gap-5" data-testid="sample-graphs">
        <aside className="flex w-72 shrink-0 flex-col gap-3">
          {canManage && <UploadForm bucketId={org.id} maxBytes={limit.data} nameRef={uploadName} onUploaded={(g) => { dirty.current = false; setChosenId(g.id); list.reload(); }} />}
          {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : graphs.length === 0 ? (
            <p className="rounded-md border border-dashed border-line px-3 py-6 text-center text-[13px] text-fg-muted">{t('sampleGraphs.none')}</p>
          ) : (
            <ul className="grid grid-cols-2 gap-2" aria-label={t('sampleGraphs.title')} data-testid="sample-graph-grid">
              {graphs.map((g, i) => (
                <li key={g.id} data-graph-id={g.id} className={`flex flex-col overflow-hidden rounded-md border bg-surface ${g.id === chosen?.id ? 'border-accent shadow-[inset_0_0_0_1px_var(--accent)]' : 'border-line'}`}>
                  <button type="button" className="flex flex-1 flex-col text-left focus-visible:outline-2 focus-visible:outline-[var(--focus)]" onClick={() => choose(g.id)}
                    aria-current={g.id === chosen?.id || undefined} aria-label={t('sampleGraphs.open', { name: g.name, count: g.points.length })}>
                    <span className="relative block aspect-[4/3] w-full bg-white">
                      <img src={g.url} alt="" className="absolute inset-0 h-full w-full object-contain" draggable={false} />
                    </span>
                    <span className="block truncate px-2 pt-1 text-[13px] font-medium">{g.name}</span>
                    <span className="block truncate px-2 pb-1 text-xs text-fg-muted">{[g.origin, t('sampleGraphs.pointsCount', { count: g.points.length })].filter(Boolean).join(' · ')}</span>
                  </button>
                  {canManage && (
                    <span className="flex justify-end border-t border-line/60">
                      <button type="button" className="icon-button h-6 w-6 text-xs" disabled={i === 0 || busy} onClick={() => void move(g, -1)} aria-label={t('sampleGraphs.moveUp', { name: g.name })}>↑</button>
                      <button type="button" className="icon-button h-6 w-6 text-xs" disabled={i === graphs.length - 1 || busy} onClick={() => void move(g, 1)} aria-label={t('sampleGraphs.moveDown', { name: g.name })}>↓</button>
                      <button type="button" className="icon-button h-6 w-6 text-xs text-danger" onClick={() => setDeleting(g)} aria-label={t('sampleGraphs.deleteOf', { name: g.name })}>✕</button>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </aside>
        {chosen ? (
          <SampleGraphEditor key={chosen.id} graph={chosen} canManage={canManage} onDirty={onDirty}
            onSaved={(g) => list.put((data) => data?.map((x) => (x.id === g.id ? { ...g, url: x.url } : x)) ?? data)} />
        ) : list.data && <p className="pt-8 text-[13px] text-fg-muted">{t(canManage ? 'sampleGraphs.startHint' : 'sampleGraphs.none')}</p>}
      </div>
      <ConfirmDialog open={asked !== null} title={t('sampleGraphs.discardTitle')} confirmLabel={t('sampleGraphs.discard')} busy={false} focus="cancel"
        onCancel={() => setAsked(null)} onConfirm={() => { dirty.current = false; setChosenId(asked); setAsked(null); }}>
        <p className="text-[13px]">{t('sampleGraphs.discardBody')}</p>
      </ConfirmDialog>
      <ConfirmDialog open={deleting !== null} title={t('sampleGraphs.deleteTitle')} confirmLabel={t('admin.delete')} busy={busy} focus="cancel"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void run(() => sampleGraphsApi.remove(deleting.id), t('sampleGraphs.deleted', { name: deleting.name })).then((ok) => {
          if (ok) { if (deleting.id === chosen?.id) dirty.current = false; setDeleting(null); list.reload(); }
        })}>
        <p className="text-[13px]">{t('sampleGraphs.deleteBody', { name: deleting?.name ?? '' })}</p>
      </ConfirmDialog>
    </CommandScope>
  );
}

/** Name, origin and a PNG or JPEG file; the size limit is the deployment's (global config sampleGraphMaxMb). */
function UploadForm({ bucketId, maxBytes, nameRef, onUploaded }: {
  bucketId: number; maxBytes: number | null; nameRef: React.RefObject<HTMLInputElement | null>; onUploaded: (graph: SampleGraph) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [name, setName] = useState('');
  const [origin, setOrigin] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [round, setRound] = useState(0);
  const { busy, error, run, clear } = useWrite({ errors: 'inline' });
  const problem = !file ? null
    : !(SAMPLE_GRAPH_TYPES as readonly string[]).includes(file.type) ? t('sampleGraphs.badType')
      : maxBytes !== null && file.size > maxBytes ? t('sampleGraphs.tooLarge', { size: formatBytes(maxBytes) }) : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || problem || !name.trim()) return;
    let made: SampleGraph | null = null;
    const ok = await run(async () => { made = await sampleGraphsApi.upload(bucketId, name.trim(), origin.trim(), file); }, t('sampleGraphs.uploaded', { name: name.trim() }));
    if (ok && made) {
      setName(''); setOrigin(''); setFile(null); setRound((n) => n + 1);
      onUploaded(made);
    }
  };
  const field = 'mb-1 block text-xs font-medium';
  return (
    <form onSubmit={submit} className="rounded-md border border-line bg-surface p-3" data-testid="sample-graph-upload" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="mb-2 text-[13px] font-semibold">{t('sampleGraphs.upload')}</h3>
      <div className="grid grid-cols-2 gap-2">
        <div>
          <label htmlFor={`${ids}-name`} className={field}>{t('sampleGraphs.name')}</label>
          <input id={`${ids}-name`} ref={nameRef} className="input h-7" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${ids}-origin`} className={field}>{t('sampleGraphs.origin')}</label>
          <input id={`${ids}-origin`} className="input h-7" value={origin} maxLength={64} onChange={(e) => setOrigin(e.target.value)} />
        </div>
        <div className="col-span-2">
          <label htmlFor={`${ids}-file`} className={field}>{t('sampleGraphs.file')}</label>
          <input key={round} id={`${ids}-file`} type="file" accept={SAMPLE_GRAPH_TYPES.join(',')} className="block w-full text-xs file:btn file:mr-2 file:h-7"
            aria-describedby={`${ids}-limit`} onChange={(e) => { clear(); setFile(e.target.files?.[0] ?? null); }} data-testid="sample-graph-file" />
          <p id={`${ids}-limit`} className="mt-1 text-xs text-fg-muted">{maxBytes !== null ? t('sampleGraphs.limit', { size: formatBytes(maxBytes) }) : t('common.loading')}</p>
        </div>
      </div>
      {problem && <div className="mt-2"><Alert>{problem}</Alert></div>}
      <ErrorNote error={error} labels={{ name: t('sampleGraphs.name'), origin: t('sampleGraphs.origin'), bucketId: t('sampleGraphs.file') }} />
      <div className="mt-2 flex justify-end">
        <button type="submit" className="btn btn-primary h-7 text-xs" disabled={busy || !file || Boolean(problem) || !name.trim()}>{t('sampleGraphs.uploadSubmit')}</button>
      </div>
    </form>
  );
}
