import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { Registration, RegistryRow, RegistrySetup } from '../../../contract/registry';
import { HUMAN_GENDERS, PET_GENDERS, REGISTRY_MAX_EXAMS, REGISTRY_PAGE_SIZE } from '../../../contract/registry';
import { CommandScope, useCommands } from '@/lib/commands';
import { saveBlob } from '@/lib/download';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { navigate, useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { pageRange, useHeldRow } from '@/lib/listPage';
import { useLoad } from '@/lib/useLoad';
import { useDeskList } from './list/useDeskList';
import { ListBody } from '@/ui/ListBody';
import { registryApi } from './api';
import { registryCommands, type RegistryContext } from './commands';
import { addDays, dayIn, timeIn } from '../../../contract/days';
import { draftOf, emptyDraft, newLine, toInput, validate, withRecord, type DraftErrors, type RegistrationDraft } from './form/draft';
import { RegistrationForm } from './form/RegistrationForm';
import { sameDayProblem } from './labels/sameDay';
import { CancelDialog, DeleteDialog, MatchDialog } from './list/dialogs';
import { PatientHistory } from './list/PatientHistory';
import { RegistryList, type RowAction } from './list/RegistryList';
import { Toolbar } from './list/Toolbar';
import { dayFrom, idFrom, labelsPath, registryPath } from './paths';
import { PageLoading, PageProblem } from '@/ui/LoadState';

const REGISTRY_ACTIONS = ['registry_create', 'registry_update', 'registry_delete'] as const;

/**
 * /registry (areas §2): the registrar's desk. The form on the left registers a patient with up to five exams; the
 * organisation's day on the right lists its exam lines (10 a page, newest first), each with its state's actions:
 * check-in, revoke, cancel, match, labels. The organisation and the day live in the URL.
 */
export default function RegistryPage() {
  const { t, i18n } = useTranslation();
  const { can } = useSession();
  const search = new URLSearchParams(useSearch());
  const orgs = useLoad('orgs', (signal) => registryApi.organisations({ signal }));
  const desks = useMemo(() => (orgs.data ?? []).filter((o) => REGISTRY_ACTIONS.some((a) => can(a, o.id))), [orgs.data, can]);
  const bucketId = idFrom(search.get('bucketId')) ?? desks[0]?.id ?? null;
  const setupLoad = useLoad(bucketId === null ? null : `setup:${bucketId}`, (signal) => registryApi.setup(bucketId!, { signal }));
  const setup = setupLoad.data && setupLoad.data.bucketId === bucketId ? setupLoad.data : null;

  if (orgs.error && !isSessionEndingError(orgs.error)) return <PageProblem text={errorText(t, orgs.error)} onRetry={orgs.reload} />;
  if (!orgs.data) return <PageLoading />;
  if (desks.length === 0 || bucketId === null) return <PageProblem text={t('registry.list.noOrganisation')} />;
  if (setupLoad.error && !isSessionEndingError(setupLoad.error)) return <PageProblem text={errorText(t, setupLoad.error)} onRetry={setupLoad.reload} />;
  if (!setup) return <PageLoading />;
  return <Desk key={bucketId} setup={setup} desks={desks} dayParam={dayFrom(search.get('day'))} lang={i18n.language} />;
}

function Desk({ setup, desks, dayParam, lang }: { setup: RegistrySetup; desks: { id: number; name: string }[]; dayParam: string | null; lang: string }) {
  const { t } = useTranslation();
  const { bucketId, timeZone } = setup;
  const now = () => new Date();
  const today = dayIn(now(), timeZone);
  const day = dayParam ?? today;
  const canCreate = setup.actions.includes('registry_create');

  const { scope, setScope, status, setStatus, text, setText, filters, skip, setSkip, listKey, list, rows, total } = useDeskList(bucketId, day, timeZone);

  const { active, activeRow, rowRefs, hold, move } = useHeldRow(listKey, rows);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [focusExam, setFocusExam] = useState<number | null>(null);

  // The form.
  const [draft, setDraft] = useState<RegistrationDraft>(() => emptyDraft(day < today ? today : day, timeIn(now(), timeZone)));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const genders = setup.isPet ? PET_GENDERS : HUMAN_GENDERS;

  const [lineToFocus, setLineToFocus] = useState<number | null>(null);
  const [dialog, setDialog] = useState<{ kind: 'cancel' | 'delete' | 'match'; row: RegistryRow } | null>(null);

  const changeDraft = (next: RegistrationDraft) => {
    setDraft(next);
    if (tried) setErrors(validate(next, today, genders));
  };
  const clearForm = useCallback(() => {
    setDraft(emptyDraft(day < today ? today : day, timeIn(new Date(), timeZone)));
    setErrors({});
    setTried(false);
    requestAnimationFrame(() => nameRef.current?.focus());
  }, [day, today, timeZone]);

  const goDay = (next: string) => navigate(registryPath(bucketId, next === today ? null : next));

  const save = async (next: boolean) => {
    if (busy) return;
    const found = validate(draft, today, genders);
    setTried(true);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      toasts.show({ message: t('registry.toast.fix'), kind: 'error' });
      return;
    }
    setBusy(true);
    try {
      const input = toInput(draft, bucketId, setup);
      const saved = draft.registrationId !== null
        ? await registryApi.update({ ...input, registrationId: draft.registrationId, version: draft.version ?? 0 })
        : await registryApi.create(input);
      toasts.show({ message: t(draft.registrationId !== null ? 'registry.toast.updated' : 'registry.toast.saved', { name: draft.patientName.trim() }), kind: 'success' });
      const firstDay = saved.lines[0] ? dayIn(new Date(saved.lines[0].scheduledTime), timeZone) : day;
      setDraft(emptyDraft(firstDay < today ? today : firstDay, timeIn(new Date(), timeZone)));
      setErrors({});
      setTried(false);
      if (firstDay !== day) goDay(firstDay);
      else if (draft.registrationId === null && skip === 0 && !status && !text.trim() && scope !== 'external') {
        // The new lines head the day's list at once (newest registration first); the reload below confirms them.
        const fresh = saved.lines.filter((l) => dayIn(new Date(l.scheduledTime), timeZone) === day).sort((a, b) => b.examId - a.examId);
        list.put((page) => page && {
          items: [...fresh, ...page.items.filter((r) => !fresh.some((f) => f.examId === r.examId))].slice(0, REGISTRY_PAGE_SIZE),
          total: page.total + fresh.length,
        });
      }
      list.reload();
      if (next) requestAnimationFrame(() => nameRef.current?.focus());
      else setFocusExam(saved.lines[0]?.examId ?? null);
    } catch (error) {
      if (isSessionEndingError(error)) return;
      const fields = isHttpError(error) && Array.isArray(error.details?.fields) ? (error.details.fields as string[]) : [];
      if (fields.length > 0) setErrors(Object.fromEntries(fields.map((f) => [f, 'registry.errors.sourceId'])));
      toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  // After a save with Enter (or an action), the keyboard is on the row it touched once the list shows it.
  useEffect(() => {
    if (focusExam === null) return;
    const index = rows.findIndex((r) => r.examId === focusExam);
    if (index < 0) return;
    requestAnimationFrame(() => {
      setFocusExam(null);
      hold(index);
      rowRefs.current[index]?.focus();
    });
  }, [focusExam, rows, hold, rowRefs]);

  // The last check-in, while it can still be taken back: a single key acted on whatever row was in hand, so the
  // toast offers Undo (and Shift+U) — the registration machine's revoke of that step, through the API.
  const [undoable, setUndoable] = useState<RegistryRow | null>(null);
  const act = async <T,>(row: RegistryRow, call: () => Promise<T>, done: string, undo?: (result: T) => RegistryRow | null) => {
    setBusy(true);
    try {
      const result = await call();
      const back = undo ? undo(result) : null;
      setUndoable(back);
      const message = t(done as 'registry.toast.checkedIn', { name: row.patientName });
      toasts.show(back
        ? { message: `${message} · ${t('registry.toast.undoHint')}`, kind: 'success', key: `registry-undo-${back.examId}-${back.version}`,
            action: { label: t('registry.toast.undo'), run: () => void undoStep(back) } }
        : { message, kind: 'success' });
      setDialog(null);
      setFocusExam(row.examId);
      list.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
      // A stale row (someone else changed it) is shown as it is now.
      if (isHttpError(error) && (error.code === 'VersionConflict' || error.code === 'InvalidTransition')) list.reload();
    } finally {
      setBusy(false);
    }
  };

  const undoStep = (row: RegistryRow) => {
    setUndoable(null);
    void act(row, () => registryApi.revoke(row), 'registry.toast.revoked');
  };
  /** The checked-in line as the server answered it (its new version), if the machine lets it be revoked. */
  const revocable = (row: RegistryRow) => (saved: Registration) => {
    const line = saved.lines.find((l) => l.examId === row.examId);
    return line && line.transitions.includes('revoke') ? line : null;
  };

  const printRows = (chosen: RegistryRow[]) => {
    const problem = sameDayProblem(chosen, timeZone);
    if (problem) {
      toasts.show({ message: t('registry.labels.notSameDay'), kind: 'error' });
      return;
    }
    navigate(labelsPath(bucketId, chosen.map((r) => r.examId)));
  };
  const chosenForLabels = () => {
    const picked = rows.filter((r) => selected.has(r.examId));
    return picked.length > 0 ? picked : activeRow ? [activeRow] : [];
  };

  const onAction = (row: RegistryRow, action: RowAction) => {
    switch (action) {
      case 'check-in': void act(row, () => registryApi.checkIn(row), 'registry.toast.checkedIn', revocable(row)); break;
      case 'revoke': void act(row, () => registryApi.revoke(row), 'registry.toast.revoked'); break;
      case 'cancel': case 'delete': case 'match': setDialog({ kind: action, row }); break;
      case 'edit': {
        const lines = rows.filter((r) => r.registrationId === row.registrationId && r.transitions.includes('edit'));
        setDraft(draftOf(lines.length > 0 ? lines : [row], timeZone));
        setErrors({});
        requestAnimationFrame(() => nameRef.current?.focus());
        break;
      }
      case 'print': printRows(selected.size > 0 ? chosenForLabels() : [row]); break;
    }
  };

  const allowed = new Set(activeRow?.transitions ?? []);
  const context: RegistryContext = {
    rows: rows.length,
    hasActiveRow: activeRow !== null,
    hasNextPage: skip + REGISTRY_PAGE_SIZE < total,
    hasPreviousPage: skip > 0,
    busy: busy || dialog !== null,
    can: {
      checkIn: allowed.has('check-in'), revoke: allowed.has('revoke'), cancel: allowed.has('cancel'), match: allowed.has('match'),
      remove: allowed.has('delete'), edit: allowed.has('edit'),
    },
    canCreate,
    canAddLine: canCreate && draft.lines.length < REGISTRY_MAX_EXAMS,
    canPrint: selected.size > 0 || activeRow !== null,
    move,
    page: (step) => setSkip(Math.max(0, skip + step * REGISTRY_PAGE_SIZE)),
    day: (step) => goDay(step === 0 ? today : addDays(day, step)),
    refresh: list.reload,
    focusSearch: () => searchRef.current?.focus(),
    focusList: () => {
      const index = active ?? 0;
      hold(index);
      rowRefs.current[index]?.focus();
    },
    newPatient: clearForm,
    save: (next) => void save(next),
    addLine: () => {
      // The new line takes the keyboard (its exam step): the next ↓ chooses its step, not line 1's.
      const line = newLine(draft.lines.at(-1)?.day ?? today, draft.lines.at(-1)?.time ?? timeIn(new Date(), timeZone));
      changeDraft({ ...draft, lines: [...draft.lines, line] });
      setLineToFocus(line.key);
    },
    toggleSelect: () => activeRow && toggle(activeRow.examId),
    checkIn: () => activeRow && onAction(activeRow, 'check-in'),
    canUndo: undoable !== null,
    undo: () => undoable && undoStep(undoable),
    revoke: () => activeRow && onAction(activeRow, 'revoke'),
    cancel: () => activeRow && onAction(activeRow, 'cancel'),
    match: () => activeRow && onAction(activeRow, 'match'),
    remove: () => activeRow && onAction(activeRow, 'delete'),
    edit: () => activeRow && onAction(activeRow, 'edit'),
    printLabels: () => printRows(chosenForLabels()),
    exportList: () => void exportList(),
  };
  function toggle(examId: number) {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(examId)) next.delete(examId);
      else next.add(examId);
      return next;
    });
  }
  async function exportList() {
    setBusy(true);
    const progress = toasts.show({ message: t('registry.toast.exporting'), kind: 'info' });
    try {
      const blob = await registryApi.export(bucketId, filters, lang);
      saveBlob(blob, `registry-${day}.xlsx`);
      toasts.show({ message: t('registry.toast.exported'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      if (progress !== null) toasts.dismiss(progress);
      setBusy(false);
    }
  }
  useCommands(registryCommands, context);

  return (
    <CommandScope scope="registry">
      <div className="flex min-h-0 flex-1" data-registry>
        <aside className="flex w-[420px] shrink-0 flex-col border-r border-line bg-surface">
          {canCreate || draft.registrationId !== null ? (
            <RegistrationForm
              draft={draft} errors={errors} setup={setup} bucketId={bucketId} busy={busy} nameRef={nameRef} focusLine={lineToFocus}
              onChange={changeDraft} onSave={(next) => void save(next)} onClear={clearForm} onAddLine={context.addLine}
              onRemoveLine={(key) => changeDraft({ ...draft, lines: draft.lines.filter((l) => l.key !== key) })}
              onRecord={(record) => changeDraft(withRecord(draft, record))}
            />
          ) : (
            <p className="p-4 text-[13px] text-fg-muted">{t('registry.form.readOnly')}</p>
          )}
        </aside>
        <section className="flex min-w-0 flex-1 flex-col" aria-label={t('registry.list.title')}>
          <Toolbar
            desks={desks} bucketId={bucketId} day={day} today={today} scope={scope} status={status} text={text} searchRef={searchRef}
            loading={list.loading} range={pageRange(list.data ? total : null, skip, rows.length)}
            canPrevious={context.hasPreviousPage} canNext={context.hasNextPage} selected={selected.size}
            onDay={goDay} onScope={setScope} onStatus={setStatus} onText={setText} onPage={context.page} onRefresh={list.reload}
            onPrint={context.printLabels} onExport={context.exportList} exportDisabled={busy || rows.length === 0}
            onOrganisation={(id) => navigate(registryPath(id, dayParam))}
          />
          <ListBody error={list.error} empty={list.data && rows.length === 0 ? t('registry.list.empty') : null} emptyTestId="registry-empty" keys={t('registry.list.keys')}>
            <RegistryList rows={rows} timeZone={timeZone} day={day} stale={list.stale} active={active} selected={selected} rowRefs={rowRefs}
              onFocusRow={hold} onToggle={toggle} onAction={onAction} />
          </ListBody>
          {activeRow && <PatientHistory row={activeRow} bucketId={bucketId} timeZone={timeZone} />}
        </section>
      </div>
      <CancelDialog row={dialog?.kind === 'cancel' ? dialog.row : null} busy={busy} onCancel={() => setDialog(null)}
        onConfirm={(row, reason) => void act(row, () => registryApi.cancel(row, reason), 'registry.toast.cancelled')} />
      <DeleteDialog row={dialog?.kind === 'delete' ? dialog.row : null} busy={busy} onCancel={() => setDialog(null)}
        onConfirm={(row) => void act(row, () => registryApi.remove(row), 'registry.toast.deleted')} />
      <MatchDialog row={dialog?.kind === 'match' ? dialog.row : null} busy={busy} onCancel={() => setDialog(null)}
        onConfirm={(row, examId) => void act(row, () => registryApi.match(examId, row), 'registry.toast.matched')} />
    </CommandScope>
  );
}
