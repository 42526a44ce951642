import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudyGroup } from '../../../../contract/dicom';
import { patientNameText } from '@/lib/format';
import { formatBytes } from '@/lib/format';
import type { ReadFile, RefusedFile, SourceFile } from '../readFiles';
import { fromDrop, fromInput } from '../sources';

interface ChooseStepProps {
  studies: StudyGroup<ReadFile['header'] & { file: ReadFile }>[];
  refused: RefusedFile[];
  reading: { done: number; total: number } | null;
  onFiles: (sources: SourceFile[]) => void;
  onClear: () => void;
  onNext: () => void;
}

/** Step 1: files and folders, dropped or picked; read in the browser, grouped by study and series. */
export function ChooseStep({ studies, refused, reading, onFiles, onClear, onNext }: ChooseStepProps) {
  const { t } = useTranslation();
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const count = studies.reduce((n, s) => n + s.instanceCount, 0);

  const drop = async (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFiles(await fromDrop(event.dataTransfer));
  };

  return (
    <div className="flex flex-col gap-4">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => void drop(event)}
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-6 py-8 text-center ${over ? 'border-accent bg-accent-soft' : 'border-line-strong bg-surface'}`}
      >
        <p className="text-sm text-fg">{t('upload.choose.drop')}</p>
        <p className="text-xs text-fg-subtle">{t('upload.choose.hint')}</p>
        <div className="flex gap-2">
          <button type="button" className="btn" onClick={() => files.current?.click()}>{t('upload.choose.files')}</button>
          <button type="button" className="btn" onClick={() => folder.current?.click()}>{t('upload.choose.folder')}</button>
        </div>
        <input ref={files} type="file" multiple hidden data-testid="upload-files-input"
          onChange={(event) => { onFiles(fromInput(event.target.files)); event.target.value = ''; }} />
        {/* webkitdirectory is not in React's input props: set as an attribute. */}
        <input ref={folder} type="file" multiple hidden data-testid="upload-folder-input" {...{ webkitdirectory: '', directory: '' }}
          onChange={(event) => { onFiles(fromInput(event.target.files)); event.target.value = ''; }} />
        <p aria-live="polite" className="min-h-5 text-xs text-fg-muted">
          {reading ? t('upload.choose.reading', { done: reading.done, total: reading.total }) : ''}
        </p>
      </div>

      {studies.length > 0 && (
        <section aria-labelledby="upload-studies" className="rounded-lg border border-line bg-surface">
          <h3 id="upload-studies" className="border-b border-line px-4 py-2 text-sm font-semibold">
            {t('upload.choose.found', { studies: studies.length, files: count })}
          </h3>
          <ul className="divide-y divide-line">
            {studies.map((study) => {
              const first = study.series[0]!.instances[0]!;
              return (
                <li key={study.studyInstanceUid} data-testid="upload-study" className="px-4 py-2.5">
                  <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 text-sm">
                    <span className="font-medium">{patientNameText(first.patientName) || t('upload.choose.noName')}</span>
                    <span className="text-fg-muted">{first.patientId ?? ''}</span>
                    <span className="text-fg-muted">{first.studyDate ?? ''}</span>
                    <span className="text-fg-muted">{first.studyDescription ?? ''}</span>
                    <span className="ml-auto text-xs tabular-nums text-fg-subtle">{t('upload.choose.studyCounts', { series: study.series.length, files: study.instanceCount })}</span>
                  </div>
                  <ul className="mt-1 flex flex-wrap gap-1.5">
                    {study.series.map((series) => (
                      <li key={series.seriesInstanceUid} className="rounded bg-sunken px-1.5 py-0.5 text-xs text-fg-muted">
                        {series.modality ?? '—'} {series.seriesNumber !== null ? `#${series.seriesNumber}` : ''} {series.seriesDescription ?? ''} · {t('upload.choose.seriesFiles', { count: series.instances.length })}
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {refused.length > 0 && <RefusedList refused={refused} />}

      <div className="flex items-center justify-end gap-2">
        {(studies.length > 0 || refused.length > 0) && <button type="button" className="btn btn-ghost" onClick={onClear}>{t('upload.choose.clear')}</button>}
        <button type="button" className="btn btn-primary" disabled={count === 0 || reading !== null} onClick={onNext}>{t('upload.next')}</button>
      </div>
    </div>
  );
}

/** Files left out, each with why: the good ones go on without them. */
export function RefusedList({ refused }: { refused: RefusedFile[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="upload-refused" className="rounded-lg border border-warn/40 bg-surface">
      <h3 id="upload-refused" className="border-b border-line px-4 py-2 text-sm font-semibold text-warn">{t('upload.refused.title', { count: refused.length })}</h3>
      <ul className="max-h-56 divide-y divide-line overflow-y-auto text-sm">
        {refused.map((file) => (
          <li key={file.id} data-testid="upload-refused" className="flex items-baseline gap-3 px-4 py-1.5">
            <span className="min-w-0 flex-1 truncate" title={file.path}>{file.path}</span>
            <span className="shrink-0 text-xs tabular-nums text-fg-subtle">{formatBytes(file.size)}</span>
            <span className="w-72 shrink-0 text-xs text-fg-muted" title={file.detail}>{t(`upload.reasons.${file.reason}`)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
