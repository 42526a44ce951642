import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { RegistryRow, scheduleExportInput } from '../../contract/registry';
import { SCHEDULE_EXPORT_MAX } from '../../contract/registry';
import type { Db } from '../db/client';
import { exams } from '../db/schema';
import { dateCell, sheetColumns, words } from '../http/sheetColumns';
import { writeWorkbook } from '../http/workbook';
import { ApiError } from '../http/errors';
import type { RegistryDesk } from './access';
import { compileFilters } from './filters';
import { liveLine, presentLine, selectLines } from './present';

/** POST exports/schedules: the list's filters as an .xlsx, scheduled time first, at most 3000 rows (counted first). */
type ExportInput = z.output<typeof scheduleExportInput>;

const COLUMNS = sheetColumns<RegistryRow>([
  ['scheduled', 18, ['预约时间', 'Scheduled', 'དུས་འཁེལ།'], (r) => dateCell(r.scheduledTime)],
  ['status', 10, ['状态', 'Status', 'གནས་སྟངས།'], (r) => r.status],
  ['name', 14, ['姓名', 'Name', 'མིང་།'], (r) => r.patientName],
  ['gender', 6, ['性别', 'Sex', 'ཕོ་མོ།'], (r) => r.patientGender],
  ['age', 6, ['年龄', 'Age', 'ལོ་ཚད།'], (r) => r.visitAge],
  ['patientId', 16, ['患者号', 'Patient id', 'ནད་པའི་ཨང་།'], (r) => r.patientId],
  ['phone', 14, ['电话', 'Phone', 'ཁ་པར།'], (r) => r.phone],
  ['source', 6, ['来源', 'Source', 'འབྱུང་ཁུངས།'], (r) => r.patientSource],
  ['sourceId', 14, ['住院/门诊/体检号', 'Source no.', 'འབྱུང་ཁུངས་ཨང་།'], (r) => r.inpatientId ?? r.outpatientId ?? r.physicalExamId],
  ['exam', 24, ['检查项目', 'Exam', 'ཞིབ་བཤེར།'], (r) => r.procedureStep?.name ?? r.bodyPart],
  ['modality', 8, ['设备', 'Modality', 'སྒྲིག་ཆས།'], (r) => r.modality],
  ['accession', 22, ['检查号', 'Accession no.', 'ཞིབ་བཤེར་ཨང་།'], (r) => r.accessionNumber],
  ['arrived', 18, ['到检时间', 'Arrived', 'འབྱོར་དུས།'], (r) => dateCell(r.arrivedTime)],
  ['reason', 24, ['取消原因', 'Cancel reason', 'རྒྱུ་མཚན།'], (r) => r.cancelReason],
]);
const SHEET = words(['预约', 'Schedule', 'དུས་འཁེལ།']);

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
