import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationTargets } from '../../../../contract/consultations';
import type { ExamListItem } from '../../../../contract/exams';
import type { ReportView } from '../../../../contract/reports';
import { ReportHtml } from '@/features/report';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { formatDateTime, patientNameText } from '@/lib/format';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { navigate, useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { TextField } from '@/ui/TextField';
import { consultationApi } from '../api';
import { consultationCreateCommands, type ConsultationCreateCtx } from '../commands';
import { consultationListPath, consultationPath } from '../paths';
import { emptyDraft, fieldOf, toInput, validate, type CreateDraft, type DraftErrors } from './draft';
import { MembersPicker } from './MembersPicker';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-md border border-line bg-surface p-3" aria-label={title}>
      <h2 className="mb-2 text-[13px] font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * The create form, keyboard first: the reason has the keyboard, Tab walks the fields, Ctrl+Enter sends,
 * Esc leaves. Patient name, sex and age are the exam's (read-only); phone and e-mail may be added.
 */
export function ConsultationForm({ exam, report, reportId, targets }: {
  exam: ExamListItem;
  report: ReportView | null;
  reportId: number | null;
  targets: ConsultationTargets;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const ids = useId();
  const [draft, setDraft] = useState<CreateDraft>(() => emptyDraft(targets.defaultTargetId ?? targets.targets[0]?.id ?? null));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  const applicantPeople = useLoad(`people:${exam.bucketId}`, (signal) => consultationApi.people(exam.bucketId, { signal }));
  const targetId = draft.targetBucketId;
  const targetPeople = useLoad(targetId === null ? null : `people:${targetId}`, (signal) => consultationApi.people(targetId!, { signal }));
  const targetName = targets.targets.find((b) => b.id === targetId)?.name ?? '';
  const joinable = targets.joinable.filter((b) => b.id !== targetId && b.id !== exam.bucketId);

  const change = (next: CreateDraft) => {
    setDraft(next);
    if (tried) setErrors(validate(next));
  };
  const changeTarget = (id: number | null) => {
    // Experts and members chosen from the former target no longer belong: keep only the applicant's people.
    const own = new Set((applicantPeople.data ?? []).map((p) => p.id));
    change({ ...draft, targetBucketId: id, members: new Map([...draft.members].filter(([accountId]) => own.has(accountId))) });
  };

  const cancel = () => {
    if (busy) return;
    if (window.history.length > 1) window.history.back();
    else navigate(consultationListPath);
  };
  const submit = async () => {
    if (busy) return;
    const found = validate(draft);
    setTried(true);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.reason) reasonRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const created = await consultationApi.create(toInput(draft, exam.id, reportId));
      toasts.show({ message: t('consultations.create.created', { name: patientNameText(exam.patientName) }), kind: 'success' });
      navigate(consultationPath(created.id));
    } catch (error) {
      if (isSessionEndingError(error)) return;
      const fields = isHttpError(error) && Array.isArray(error.details?.fields) ? (error.details.fields as string[]) : [];
      const marked = Object.fromEntries(fields.map(fieldOf).filter((f) => f !== null).map((f) => [f, 'consultations.create.errors.invalid']));
      if (isHttpError(error) && error.code === 'ConsultationTargetInvalid') marked.targetBucketId = 'consultations.create.errors.target';
      setErrors(marked);
      toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const ctx: ConsultationCreateCtx = { canSubmit: !busy, submit: () => void submit(), cancel };
  useCommands(consultationCreateCommands, ctx);
  const onKeyDown = (event: KeyboardEvent) => {
    // Esc leaves from any field (plain keys do not reach the command registry from inputs).
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      cancel();
    }
  };

  const err = (key: string | undefined) => (key ? t(key as 'consultations.create.errors.reason') : null);
  const gender = t(`consultations.create.genders.${exam.patientGender}`, { defaultValue: exam.patientGender });
  const conclusion = report?.diagnosis.trim() ?? '';
  return (
    <CommandScope scope="consultations">
      <form
        className="mx-auto flex w-full max-w-6xl min-h-0 flex-1 flex-col gap-3 overflow-auto p-4"
        data-testid="consultation-create"
        noValidate
        onKeyDown={onKeyDown}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <header className="flex items-baseline gap-3">
          <h1 className="text-base font-semibold">{t('consultations.create.title')}</h1>
          <span className="truncate text-[13px] text-fg-muted">
            {[exam.modality, exam.bodyPart, formatDateTime(exam.examTime), exam.bucketName].filter(Boolean).join(' · ')}
          </span>
        </header>
        <div className="grid gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="flex min-w-0 flex-col gap-3">
            <Section title={t('consultations.create.patient')}>
              <dl className="mb-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-[13px]" data-testid="consultation-patient">
                <dt className="text-fg-subtle">{t('consultations.create.name')}</dt>
                <dd className="font-medium">{patientNameText(exam.patientName)}</dd>
                <dt className="text-fg-subtle">{t('consultations.create.sexAge')}</dt>
                <dd>{[gender, exam.visitAge].filter(Boolean).join(' · ') || '—'}</dd>
                <dt className="text-fg-subtle">{t('consultations.create.patientId')}</dt>
                <dd className="tabular-nums">{exam.patientId}</dd>
              </dl>
              <div className="grid grid-cols-2 gap-x-3">
                <TextField label={t('consultations.create.tel')} value={draft.patientTel} inputMode="tel" maxLength={32} autoComplete="off"
                  error={err(errors.patientTel)} onChange={(e) => change({ ...draft, patientTel: e.target.value })} />
                <TextField label={t('consultations.create.email')} value={draft.patientEmail} type="email" maxLength={128} autoComplete="off"
                  error={err(errors.patientEmail)} onChange={(e) => change({ ...draft, patientEmail: e.target.value })} />
              </div>
            </Section>
            <Section title={t('consultations.create.conclusion')}>
              {report === null ? (
                <p className="text-[13px] text-fg-subtle">{t('consultations.create.noReport')}</p>
              ) : conclusion ? (
                <div className="max-h-64 overflow-auto text-[13px]" data-testid="consultation-conclusion"><ReportHtml html={conclusion} /></div>
              ) : (
                <p className="text-[13px] text-fg-subtle">{t('consultations.create.emptyConclusion')}</p>
              )}
            </Section>
          </div>
          <div className="flex min-w-0 flex-col gap-3">
            <Section title={t('consultations.create.request')}>
              <div className="grid gap-x-3 sm:grid-cols-2">
                <div>
                  <label htmlFor={`${ids}-target`} className="mb-1 block text-[13px] font-medium text-fg-muted">{t('consultations.create.target')}</label>
                  <select id={`${ids}-target`} className="input" value={targetId ?? ''} aria-invalid={errors.targetBucketId ? true : undefined}
                    onChange={(e) => changeTarget(e.target.value ? Number(e.target.value) : null)}>
                    {targetId === null && <option value="">{t('consultations.create.chooseTarget')}</option>}
                    {targets.targets.map((b) => (
                      <option key={b.id} value={b.id}>{b.id === targets.defaultTargetId ? t('consultations.create.defaultTarget', { name: b.name }) : b.name}</option>
                    ))}
                  </select>
                  <p aria-live="polite" className="mt-1 min-h-[1.25rem] text-xs leading-5 text-danger">{err(errors.targetBucketId) ?? ''}</p>
                </div>
                <fieldset className="min-w-0">
                  <legend className="mb-1 text-[13px] font-medium text-fg-muted">{t('consultations.create.joined')}</legend>
                  {joinable.length === 0 ? (
                    <p className="text-xs leading-7 text-fg-subtle">{t('consultations.create.noJoinable')}</p>
                  ) : (
                    <div className="flex max-h-24 flex-wrap gap-x-3 gap-y-1 overflow-auto">
                      {joinable.map((b) => (
                        <label key={b.id} className="inline-flex items-center gap-1.5 text-[13px]">
                          <input type="checkbox" checked={draft.joinedBucketIds.includes(b.id)}
                            onChange={(e) => change({ ...draft, joinedBucketIds: e.target.checked ? [...draft.joinedBucketIds, b.id] : draft.joinedBucketIds.filter((x) => x !== b.id) })} />
                          {b.name}
                        </label>
                      ))}
                    </div>
                  )}
                </fieldset>
              </div>
              <label htmlFor={`${ids}-reason`} className="mb-1 block text-[13px] font-medium text-fg-muted">
                {t('consultations.create.reason')} <span className="text-danger" aria-hidden="true">*</span>
              </label>
              <textarea id={`${ids}-reason`} ref={reasonRef} className="input min-h-24 resize-y py-1.5" autoFocus required value={draft.reason}
                aria-invalid={errors.reason ? true : undefined} aria-describedby={`${ids}-reason-note`} data-testid="consultation-reason"
                placeholder={t('consultations.create.reasonHint')} onChange={(e) => change({ ...draft, reason: e.target.value })} />
              <p id={`${ids}-reason-note`} aria-live="polite" className="mt-1 min-h-[1.25rem] text-xs leading-5 text-danger">{err(errors.reason) ?? ''}</p>
              <label htmlFor={`${ids}-note`} className="mb-1 block text-[13px] font-medium text-fg-muted">{t('consultations.create.note')}</label>
              <textarea id={`${ids}-note`} className="input min-h-14 resize-y py-1.5" value={draft.note}
                aria-invalid={errors.note ? true : undefined} onChange={(e) => change({ ...draft, note: e.target.value })} />
              <p aria-live="polite" className="mt-1 min-h-[1.25rem] text-xs leading-5 text-danger">{err(errors.note) ?? ''}</p>
            </Section>
            <Section title={t('consultations.create.people')}>
              <MembersPicker
                selfId={user?.id ?? null}
                members={draft.members}
                onChange={(members) => change({ ...draft, members })}
                sides={[
                  { key: 'applicant', title: t('consultations.create.applicantSide', { name: exam.bucketName }), people: applicantPeople.data, failed: Boolean(applicantPeople.error) },
                  ...(targetId === null ? [] : [{ key: 'target' as const, title: t('consultations.create.targetSide', { name: targetName }), people: targetPeople.data, failed: Boolean(targetPeople.error) }]),
                ]}
              />
            </Section>
          </div>
        </div>
        <footer data-toast-avoid className="sticky bottom-0 -mx-4 flex items-center justify-end gap-2 border-t border-line bg-surface px-4 py-2">
          <span className="mr-auto text-xs text-fg-subtle">{t('consultations.create.keys')}</span>
          <button type="button" className="btn h-8 px-3" onClick={cancel} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary h-8 px-3" disabled={busy} data-testid="consultation-submit">
            {busy ? t('consultations.create.submitting') : t('consultations.create.submit')}
          </button>
        </footer>
      </form>
    </CommandScope>
  );
}
