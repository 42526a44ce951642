import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayPersonName, groupInstances, type DicomHeader } from '../../../contract/dicom';
import type { UploadableBucket } from '../../../contract/uploads';
import { isSettled, uploadMachine } from '../../../machines/upload';
import { toStudyInput, formFromHeaders, type ExamForm, type ExamFormField, type FormProblems } from './examForm';
import { readChosen, type ReadFile, type RefusedFile, type SourceFile } from './readFiles';
import { ChooseStep, RefusedList } from './steps/ChooseStep';
import { DoneStep } from './steps/DoneStep';
import { InfoStep } from './steps/InfoStep';
import { UploadStep } from './steps/UploadStep';
import type { UploadTarget } from './target';
import { useUploadRunner } from './useUploadRunner';
import { useLeaveWarning } from '@/lib/useLeaveWarning';

const STEPS = ['choose', 'info', 'upload', 'done'] as const;
type Step = (typeof STEPS)[number];

export interface UploadWizardProps {
  /** Fixed target (organisation token, upload code); or null with `buckets` to let the user pick. */
  target: UploadTarget | null;
  buckets?: UploadableBucket[] | null;
  /** The organisation's name when the target is fixed. */
  destination?: string | null;
  /** Where "Go to the worklist" leads after completing; null hides it (uploaders without an account). */
  worklist?: string | null;
  onRestart: () => void;
}

type Entry = DicomHeader & { file: ReadFile };

/**
 * The upload wizard (core §2): choose files, exam info, upload, complete. The steps are the machine's
 * (machines/upload.ts); this component holds what the machine need not know: the File objects, the
 * parsed headers and the exam info the user edits.
 */
export function UploadWizard({ target: fixedTarget, buckets = null, destination = null, worklist = null, onRestart }: UploadWizardProps) {
  const { t } = useTranslation();
  const actor = useActorRef(uploadMachine, { input: {} });
  const state = useSelector(actor, (s) => s.value as string);
  const context = useSelector(actor, (s) => s.context);
  const [read, setRead] = useState<ReadFile[]>([]);
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  const [reading, setReading] = useState<{ done: number; total: number } | null>(null);
  const [forms, setForms] = useState<Record<string, ExamForm>>({});
  const [problems, setProblems] = useState<Record<string, FormProblems>>({});
  const [bucketId, setBucketId] = useState<number | null>(buckets?.[0]?.id ?? null);
  const target: UploadTarget | null = fixedTarget ?? (bucketId !== null ? { kind: 'bucket', bucketId } : null);

  const byId = useMemo(() => new Map(read.map((r) => [r.id, r])), [read]);
  const grouping = useMemo(() => groupInstances<Entry>(read.map((r) => ({ ...r.header, file: r }))), [read]);
  const inputs = useRef<Record<string, ReturnType<typeof toStudyInput>['input']>>({});

  const { completed } = useUploadRunner({
    actor,
    target,
    infoFor: (studyUid) => inputs.current[studyUid]!,
    fileFor: (id) => byId.get(id)?.file,
  });

  const step: Step = state === 'choosing' ? 'choose' : state === 'describing' ? 'info' : state === 'done' ? 'done' : 'upload';
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [step]);

  // Core: closing the tab loses nothing stored, but files still on their way would have to be sent again.
  const busy = step === 'upload' && !isSettled(context);
  useLeaveWarning(busy);

  const addFiles = useCallback(async (sources: SourceFile[]) => {
    if (sources.length === 0) return;
    setReading({ done: 0, total: sources.length });
    const known = new Set(read.map((r) => r.header.sopInstanceUid));
    const knownIds = new Set([...read.map((r) => r.id), ...refused.map((r) => r.id)]);
    const fresh = sources.filter((s) => !knownIds.has(`${s.path}\u0000${s.file.size}\u0000${s.file.lastModified}`));
    const result = await readChosen(fresh, known, (done) => setReading({ done, total: fresh.length }));
    setReading(null);
    setRead((list) => [...list, ...result.read]);
    setRefused((list) => [...list, ...result.refused]);
    actor.send({ type: 'FILES_CHOSEN', files: result.read.map((r) => ({ id: r.id, studyUid: r.header.studyInstanceUid, sopInstanceUid: r.header.sopInstanceUid, size: r.size })) });
  }, [actor, read, refused]);

  const clear = () => {
    actor.send({ type: 'FILES_REMOVED', ids: read.map((r) => r.id) });
    setRead([]);
    setRefused([]);
    setForms({});
  };

  const toInfo = () => {
    // Pre-fill once per study; what the user already changed stays.
    setForms((current) => Object.fromEntries(grouping.studies.map((study) => [
      study.studyInstanceUid,
      current[study.studyInstanceUid] ?? formFromHeaders(study.series.flatMap((s) => s.instances)),
    ])));
    actor.send({ type: 'NEXT' });
  };

  const start = () => {
    const found: Record<string, FormProblems> = {};
    const next: typeof inputs.current = {};
    for (const study of grouping.studies) {
      const { input, problems: p } = toStudyInput(forms[study.studyInstanceUid]!);
      if (input) next[study.studyInstanceUid] = input;
      else found[study.studyInstanceUid] = p;
    }
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    inputs.current = next;
    actor.send({ type: 'START' });
  };

  const change = (studyUid: string, field: ExamFormField, value: string) => {
    setForms((current) => ({ ...current, [studyUid]: { ...current[studyUid]!, [field]: value } }));
    setProblems((current) => (current[studyUid]?.[field] ? { ...current, [studyUid]: { ...current[studyUid], [field]: undefined } } : current));
  };

  const names = useMemo(() => {
    const out: Record<string, string> = Object.fromEntries(read.map((r) => [r.id, r.path]));
    for (const [uid, form] of Object.entries(forms)) out[uid] = form.patientName;
    return out;
  }, [read, forms]);
  const examNames = useMemo(() => Object.fromEntries(context.studies.filter((s) => s.examId !== null).map((s) => [s.examId!, forms[s.studyUid]?.patientName ?? displayPersonName(null)])), [context.studies, forms]);
  const settled = isSettled(context);
  const snapshot = actor.getSnapshot();

  return (
    <div className="flex flex-col gap-4">
      <ol aria-label={t('upload.steps.label')} className="flex gap-1 text-xs">
        {STEPS.map((s, i) => {
          const index = STEPS.indexOf(step);
          return (
            <li key={s} aria-current={s === step ? 'step' : undefined}
              className={`flex flex-1 items-center gap-2 border-t-2 pt-1.5 ${i < index ? 'border-ok text-fg-muted' : s === step ? 'border-accent font-semibold text-fg' : 'border-line text-fg-subtle'}`}>
              <span className="tabular-nums">{i + 1}</span>{t(`upload.steps.${s}`)}
            </li>
          );
        })}
      </ol>
      <h2 ref={heading} tabIndex={-1} className="text-base font-semibold outline-none">{t(`upload.steps.${step}`)}</h2>

      {step === 'choose' && (
        <ChooseStep studies={grouping.studies} refused={refused} reading={reading} onFiles={(s) => void addFiles(s)} onClear={clear} onNext={toInfo} />
      )}
      {step === 'info' && (
        <>
          <InfoStep
            forms={grouping.studies.map((s) => forms[s.studyInstanceUid]!).filter(Boolean)}
            problems={problems}
            fileCounts={Object.fromEntries(grouping.studies.map((s) => [s.studyInstanceUid, s.instanceCount]))}
            onChange={change}
            buckets={fixedTarget ? null : buckets}
            bucketId={bucketId}
            onBucket={setBucketId}
            destination={destination}
            onBack={() => actor.send({ type: 'BACK' })}
            onStart={start}
          />
          {refused.length > 0 && <RefusedList refused={refused} />}
        </>
      )}
      {step === 'upload' && (
        <UploadStep
          items={context.items}
          studies={context.studies}
          names={names}
          settled={settled}
          canRetry={settled && snapshot.can({ type: 'RETRY_FAILED' })}
          canFinish={snapshot.can({ type: 'FINISH' })}
          completing={state === 'completing'}
          completeError={context.completeError}
          onRetry={(id) => actor.send({ type: 'RETRY_FILE', id })}
          onRetryAll={() => actor.send({ type: 'RETRY_FAILED' })}
          onFinish={() => actor.send({ type: 'FINISH' })}
        />
      )}
      {step === 'done' && <DoneStep completed={completed} names={examNames} refusedCount={refused.length + context.items.filter((i) => i.status === 'failed').length} onMore={onRestart} worklist={worklist} />}
    </div>
  );
}
