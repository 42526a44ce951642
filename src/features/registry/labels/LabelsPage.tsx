import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { RegistryRow } from '../../../../contract/registry';
import { LABEL_HEIGHT_MM, LABEL_WIDTH_MM } from '../../../../contract/registry';
import { CommandScope } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { navigate } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { QrCode } from '@/ui/QrCode';
import { Spinner } from '@/ui/Spinner';
import { registryApi } from '../api';
import { dayIn, timeIn } from '../../../../contract/days';
import { idFrom, registryPath } from '../paths';
import { Barcode } from './Barcode';
import { sameDayProblem } from './sameDay';
import './labels.css';

/**
 * /registry/labels?bucketId&examIds: the print view of exam labels, 80 × 50 mm each (CSS @page). Enter or the
 * button prints, Esc goes back to the desk. Lines of different days are refused here too (areas §5).
 */
export default function LabelsPage() {
  const { t } = useTranslation();
  const search = new URLSearchParams(useSearch());
  const bucketId = idFrom(search.get('bucketId'));
  const examIds = (search.get('examIds') ?? '').split(',').map((v) => idFrom(v)).filter((v): v is number => v !== null).slice(0, 50);
  const key = bucketId !== null && examIds.length > 0 ? `${bucketId}:${examIds.join(',')}` : null;
  const data = useLoad(key, async (signal) => {
    const [setup, page] = await Promise.all([
      registryApi.setup(bucketId!, { signal }),
      registryApi.query(bucketId!, {
        filters: [{ field: 'examId', operator: 'in', values: examIds }, { field: 'sourceScope', operator: 'equal', values: ['all'] }],
        sorts: [{ field: 'scheduledTime', direction: 'asc' }], skip: 0, limit: examIds.length,
      }, { signal }),
    ]);
    return { setup, rows: page.items };
  });
  const printButton = useRef<HTMLButtonElement>(null);
  const back = () => navigate(registryPath(bucketId));
  const ready = data.data !== null && data.data.rows.length > 0;
  const notSameDay = data.data ? sameDayProblem(data.data.rows, data.data.setup.timeZone) : null;

  useEffect(() => {
    if (ready) requestAnimationFrame(() => printButton.current?.focus());
  }, [ready]);

  return (
    <CommandScope scope="print">
      <div className="label-desk flex min-h-screen flex-col items-center gap-4 bg-sunken p-6" onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          back();
        }
      }}>
        <div className="label-bar flex w-full max-w-xl items-center gap-2">
          <h1 className="text-base font-semibold">{t('registry.labels.title', { count: data.data?.rows.length ?? examIds.length })}</h1>
          <span className="text-xs text-fg-muted">{t('registry.labels.size', { w: LABEL_WIDTH_MM, h: LABEL_HEIGHT_MM })}</span>
          <button type="button" className="btn ml-auto" onClick={back}>{t('registry.labels.back')} <kbd className="key-hint">Esc</kbd></button>
          <button ref={printButton} type="button" className="btn btn-primary" disabled={!ready || notSameDay !== null} onClick={() => window.print()} data-testid="labels-print">
            {t('registry.labels.print')} <kbd className="key-hint">Enter</kbd>
          </button>
        </div>
        {data.error && !isSessionEndingError(data.error) ? <Alert>{errorText(t, data.error)}</Alert>
          : key === null ? <Alert>{t('registry.labels.nothing')}</Alert>
          : !data.data ? <Spinner label={t('common.loading')} />
          : notSameDay ? <Alert>{t('registry.labels.notSameDay')}</Alert>
          : data.data.rows.length === 0 ? <Alert>{t('registry.labels.nothing')}</Alert>
          : (
            <div className="flex flex-col gap-3" data-testid="labels">
              {data.data.rows.map((row) => <Label key={row.examId} row={row} timeZone={data.data!.setup.timeZone} />)}
            </div>
          )}
      </div>
    </CommandScope>
  );
}

function Label({ row, timeZone }: { row: RegistryRow; timeZone: string }) {
  const { t } = useTranslation();
  const when = new Date(row.scheduledTime);
  const age = /^(\d+)([YMWD])$/.exec(row.visitAge ?? '');
  return (
    <article className="label-sheet" data-testid="label" data-exam-id={row.examId}>
      <div className="col-span-2 flex justify-between text-[7pt]">
        <span className="truncate font-semibold">{row.bucketName}</span>
        <span className="tabular-nums">{row.patientId}</span>
      </div>
      <div className="mt-[1mm] truncate text-[13pt] font-bold leading-tight">{row.patientName}</div>
      <div className="row-span-3 mt-[1mm] self-start">
        <QrCode text={row.accessionNumber} label={t('registry.labels.qr', { accession: row.accessionNumber })} size={42} />
      </div>
      <div className="text-[8.5pt]">
        {t(`registry.genders.${row.patientGender as 'M'}`, { defaultValue: row.patientGender })}
        {age ? ` · ${t(`registry.ageShort.${age[2] as 'Y'}`, { n: age[1]! })}` : ''}
        {' · '}<b>{row.modality}</b> {row.procedureStep?.name ?? row.bodyPart ?? ''}
        <div className="tabular-nums">{dayIn(when, timeZone)} {timeIn(when, timeZone)}{row.urgentFlag ? ` · ${t('registry.list.urgent')}` : ''}</div>
      </div>
      <div className="col-span-2 self-end">
        <Barcode value={row.accessionNumber} label={t('registry.labels.barcode', { accession: row.accessionNumber })} />
        <div className="text-center text-[7.5pt] tracking-wider tabular-nums">{row.accessionNumber}</div>
      </div>
    </article>
  );
}
