import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { SourceCell, StatusBadge, UrgentMark, sexAge } from '@/ui/examCells';
import { WaitCell, formatExamTime } from './cells';
import { patientNameText } from '@/lib/format';
import type { ExamRow } from './types';
import type { SortField } from './view';

/** What a cell needs besides its exam: the language and the clock (the waiting time ticks once a minute). */
export interface CellEnv {
  t: TFunction;
  now: number;
}

export interface ColumnSpec {
  id: string;
  /** i18n key of the header. */
  header: string;
  /** The default width in Chinese; `sizes` where English or Tibetan words need more (a user's own widths win). */
  size: number;
  sizes?: Partial<Record<'en' | 'tib', number>>;
  minSize?: number;
  /** The server field the column sorts by, when it can. */
  sort?: SortField;
  align?: 'start' | 'end' | 'center';
  /** Cannot be hidden (the patient is always shown). */
  fixed?: boolean;
  render: (exam: ExamRow, env: CellEnv) => ReactNode;
}

const text = (value: string | null | undefined) => value || <span className="text-fg-subtle">—</span>;

/** A value that may outgrow a narrowed column: cut with an ellipsis, whole in its title. */
const cut = (value: string | null | undefined, className: string) =>
  value ? <span className={`min-w-0 truncate ${className}`} title={value}>{value}</span> : text(value);

/**
 * The worklist's columns in their default order. Widths suit each language's longest label at 13 px (badges, "Phys
 * exam", "Unknown 37y"; tests/e2e/overflow.spec.ts); the accession number and organisation are cut with an ellipsis
 * and their title when a user narrows them.
 */
export const COLUMN_SPECS: readonly ColumnSpec[] = [
  { id: 'urgent', header: 'worklist.columns.urgent', size: 34, minSize: 30, align: 'center', render: (e, { t }) => <UrgentMark urgent={e.urgentFlag} t={t} /> },
  { id: 'status', header: 'worklist.columns.status', size: 76, sizes: { en: 92, tib: 114 }, minSize: 60, sort: 'reportStatus', render: (e, { t }) => <StatusBadge status={e.reportStatus} t={t} /> },
  { id: 'waiting', header: 'worklist.columns.waiting', size: 62, minSize: 50, align: 'end', render: (e, { now }) => <WaitCell exam={e} now={now} /> },
  { id: 'patientName', header: 'worklist.columns.patientName', size: 96, minSize: 64, sort: 'patientName', fixed: true, render: (e) => <span className="font-medium text-fg">{patientNameText(e.patientName)}</span> },
  { id: 'sexAge', header: 'worklist.columns.sexAge', size: 80, sizes: { en: 106, tib: 90 }, minSize: 48, render: (e, { t }) => sexAge(e, t) },
  { id: 'patientId', header: 'worklist.columns.patientId', size: 104, minSize: 64, sort: 'patientId', render: (e) => <span className="tabular-nums">{e.patientId}</span> },
  { id: 'source', header: 'worklist.columns.source', size: 64, sizes: { en: 90 }, minSize: 40, render: (e, { t }) => <SourceCell source={e.patientSource} t={t} /> },
  { id: 'modality', header: 'worklist.columns.modality', size: 72, minSize: 40, sort: 'modality', render: (e) => <span className="font-medium">{e.modality}</span> },
  { id: 'bodyPart', header: 'worklist.columns.bodyPart', size: 96, minSize: 56, sort: 'bodyPart', render: (e) => text(e.bodyPart) },
  { id: 'examTime', header: 'worklist.columns.examTime', size: 96, minSize: 72, sort: 'examTime', render: (e, { now }) => <span className="tabular-nums">{formatExamTime(e.examTime, now)}</span> },
  { id: 'accessionNumber', header: 'worklist.columns.accessionNumber', size: 168, minSize: 72, sort: 'accessionNumber', render: (e) => cut(e.accessionNumber, 'tabular-nums text-fg-muted') },
  { id: 'reporter', header: 'worklist.columns.reporter', size: 72, minSize: 48, render: (e) => text(e.reportCreatorName) },
  { id: 'origin', header: 'worklist.columns.origin', size: 64, minSize: 48, render: (e, { t }) => (e.isRemoteReportRequested ? t('worklist.origin.remote') : e.teleMedFlag ? t('worklist.origin.expert') : <span className="text-fg-subtle">—</span>) },
  { id: 'bucketName', header: 'worklist.columns.bucketName', size: 152, minSize: 72, render: (e) => cut(e.bucketName, 'text-fg-muted') },
  { id: 'deletedTime', header: 'worklist.columns.deletedTime', size: 96, minSize: 72, sort: 'deletedTime', render: (e, { now }) => (e.deletedTime ? <span className="tabular-nums">{formatExamTime(e.deletedTime, now)}</span> : '') },
];

export const COLUMN_IDS = COLUMN_SPECS.map((c) => c.id);
