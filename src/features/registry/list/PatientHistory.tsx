import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegistryRow } from '../../../../contract/registry';
import { formatDateTime } from '@/lib/format';
import { useLoad } from '@/lib/useLoad';
import { registryApi } from '../api';
import { dayIn, timeIn } from '../../../../contract/days';
import { RegistryStatusBadge } from './RegistryList';

/**
 * Under the list, the patient of the row in hand: their scheduled and registered lines on any day, and their past
 * exams (the latest 15), so the registrar sees a repeat visit or a duplicate booking before acting.
 */
export function PatientHistory({ row, bucketId, timeZone }: { row: RegistryRow; bucketId: number; timeZone: string }) {
  const { t } = useTranslation();
  const schedules = useLoad(`lines:${bucketId}:${row.patientId}`, (signal) => registryApi.query(bucketId, {
    filters: [{ field: 'search', operator: 'like', values: [row.patientId] }, { field: 'sourceScope', operator: 'equal', values: ['all'] }],
    sorts: [{ field: 'scheduledTime', direction: 'desc' }], skip: 0, limit: 10,
  }, { signal }));
  const past = useLoad(`past:${row.patientId}`, (signal) => registryApi.patientExams(row.patientId, { signal }));
  const lines = (schedules.data?.items ?? []).filter((r) => r.patientId === row.patientId);
  // Exams of later days without images are bookings, not history: the line's own day is "now" enough.
  const [now] = useState(() => Date.now());
  const exams = (past.data?.items ?? []).filter((e) => e.id !== row.examId && (e.hasImage || Date.parse(e.examTime) < now));
  return (
    <div className="grid max-h-48 shrink-0 grid-cols-2 gap-3 overflow-auto border-t border-line bg-sunken/40 px-3 py-2 text-xs" data-testid="patient-history" data-toast-avoid
      aria-label={t('registry.history.title', { name: row.patientName })} role="region">
      <div>
        <h3 className="mb-1 font-medium text-fg-muted">{t('registry.history.scheduled', { name: row.patientName })}</h3>
        {lines.length === 0 ? <p className="text-fg-subtle">{t('registry.history.none')}</p> : (
          <ul className="flex flex-col gap-0.5">
            {lines.map((l) => (
              <li key={l.examId} className={`flex items-center gap-2 ${l.examId === row.examId ? 'font-medium' : ''}`}>
                <RegistryStatusBadge status={l.status} />
                <span className="tabular-nums">{dayIn(new Date(l.scheduledTime), timeZone)} {timeIn(new Date(l.scheduledTime), timeZone)}</span>
                <span>{l.modality} {l.procedureStep?.name ?? l.bodyPart ?? ''}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="mb-1 font-medium text-fg-muted">{t('registry.history.past')}</h3>
        {exams.length === 0 ? <p className="text-fg-subtle">{t('registry.history.none')}</p> : (
          <ul className="flex flex-col gap-0.5">
            {exams.map((e) => (
              <li key={e.id} className="flex items-center gap-2">
                <span className="tabular-nums">{formatDateTime(e.examTime)}</span>
                <span className="font-medium">{e.modality}</span>
                <span className="truncate">{e.bodyPart ?? e.studyDescription ?? ''}</span>
                <span className="ml-auto text-fg-muted">{e.reportStatus ? t(`report.status.${e.reportStatus as 'none'}`, { defaultValue: e.reportStatus }) : ''}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
