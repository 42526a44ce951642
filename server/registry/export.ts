import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Language } from '../../contract/constants';
import type { RegistryRow, scheduleExportInput } from '../../contract/registry';
import { SCHEDULE_EXPORT_MAX } from '../../contract/registry';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import { writeWorkbook, type SheetColumn } from '../http/workbook';
import { ApiError } from '../http/errors';
import type { RegistryDesk } from './access';
import { compileFilters } from './filters';
import { liveLine, presentLine, selectLines } from './present';

/** POST exports/schedules: the list's filters as an .xlsx, scheduled time first, at most 3000 rows (counted first). */
type ExportInput = z.output<typeof scheduleExportInput>;

const COLUMNS: SheetColumn<RegistryRow>[] = [
  { key: 'scheduled', width: 18, label: { chs: '预约时间', en: 'Scheduled', tib: 'དུས་འཁེལ།' }, value: (r) => new Date(r.scheduledTime) },
  { key: 'status', width: 10, label: { chs: '状态', en: 'Status', tib: 'གནས་སྟངས།' }, value: (r) => r.status },
  { key: 'name', width: 14, label: { chs: '姓名', en: 'Name', tib: 'མིང་།' }, value: (r) => r.patientName },
  { key: 'gender', width: 6, label: { chs: '性别', en: 'Sex', tib: 'ཕོ་མོ།' }, value: (r) => r.patientGender },
  { key: 'age', width: 6, label: { chs: '年龄', en: 'Age', tib: 'ལོ་ཚད།' }, value: (r) => r.visitAge },
  { key: 'patientId', width: 16, label: { chs: '患者号', en: 'Patient id', tib: 'ནད་པའི་ཨང་།' }, value: (r) => r.patientId },
  { key: 'phone', width: 14, label: { chs: '电话', en: 'Phone', tib: 'ཁ་པར།' }, value: (r) => r.phone },
  { key: 'source', width: 6, label: { chs: '来源', en: 'Source', tib: 'འབྱུང་ཁུངས།' }, value: (r) => r.patientSource },
  { key: 'sourceId', width: 14, label: { chs: '住院/门诊/体检号', en: 'Source no.', tib: 'འབྱུང་ཁུངས་ཨང་།' }, value: (r) => r.inpatientId ?? r.outpatientId ?? r.physicalExamId },
  { key: 'exam', width: 24, label: { chs: '检查项目', en: 'Exam', tib: 'ཞིབ་བཤེར།' }, value: (r) => r.procedureStep?.name ?? r.bodyPart },
  { key: 'modality', width: 8, label: { chs: '设备', en: 'Modality', tib: 'སྒྲིག་ཆས།' }, value: (r) => r.modality },
  { key: 'accession', width: 22, label: { chs: '检查号', en: 'Accession no.', tib: 'ཞིབ་བཤེར་ཨང་།' }, value: (r) => r.accessionNumber },
  { key: 'arrived', width: 18, label: { chs: '到检时间', en: 'Arrived', tib: 'འབྱོར་དུས།' }, value: (r) => (r.arrivedTime ? new Date(r.arrivedTime) : null) },
  { key: 'reason', width: 24, label: { chs: '取消原因', en: 'Cancel reason', tib: 'རྒྱུ་མཚན།' }, value: (r) => r.cancelReason },
];
const SHEET: Record<Language, string> = { chs: '预约', en: 'Schedule', tib: 'དུས་འཁེལ།' };

export async function scheduleWorkbook(db: Db, desk: RegistryDesk, input: ExportInput): Promise<Buffer> {
  const where = and(eq(exams.bucketId, desk.bucketId), liveLine, ...compileFilters(input.filters))!;
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(exams).where(where);
  const total = Number(count?.n ?? 0);
  if (total > SCHEDULE_EXPORT_MAX) throw new ApiError('ExportTooLarge', undefined, { total, max: SCHEDULE_EXPORT_MAX });
  const rows = (await selectLines(db).where(where).orderBy(asc(exams.scheduledTime), asc(exams.id))).map((r) => presentLine(r, desk.rights));
  const zone = input.timeZone && isZone(input.timeZone) ? input.timeZone : desk.timeZone;
  return writeWorkbook({ sheet: SHEET, columns: COLUMNS, rows, lang: input.lang, timeZone: zone });
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
