import type { Language } from '../../contract/constants';
import type { ConsultationListItem } from '../../contract/consultations';
import { dateCell, PAYMENT_STATUS, sheetColumns, wordList, wordOf, words } from '../http/sheetColumns';
import { writeWorkbook } from '../http/workbook';

/**
 * The consultation list as an .xlsx workbook (areas §5 exports, at most CONSULTATION_EXPORT_MAX rows): one sheet, a
 * frozen bold header, times as real date cells. The labels live here because the file is made here.
 */

const STATUS = wordList([
  ['待处理', 'Pending', 'སྒུག་བཞིན།'],
  ['已预约', 'Scheduled', 'དུས་ཚོད་གཏན་འཁེལ།'],
  ['待确认', 'Awaiting approval', 'ཆོག་མཆན་སྒུག་བཞིན།'],
  ['已完成', 'Completed', 'ལེགས་གྲུབ།'],
  ['已取消', 'Canceled', 'མེད་པར་བཟོས།'],
]);
const SHEET = words(['会诊', 'Consultations', 'གྲོས་བསྡུར།']);

const COLUMNS = sheetColumns<ConsultationListItem>([
  ['id', 8, ['编号', 'No.', 'ཨང་།'], (r) => r.id],
  ['patientName', 14, ['患者姓名', 'Patient', 'ནད་པའི་མིང་།'], (r) => r.patientName],
  ['status', 12, ['状态', 'Status', 'གནས་སྟངས།'], (r, l) => wordOf(STATUS, r.status, l)],
  ['appliedBucketName', 22, ['申请机构', 'Applicant', 'ཞུ་གཏུག་པའི་ཚོགས་པ།'], (r) => r.appliedBucketName],
  ['targetBucketName', 22, ['会诊机构', 'Consulted', 'གྲོས་བསྡུར་ཚོགས་པ།'], (r) => r.targetBucketName ?? ''],
  ['reason', 40, ['会诊原因', 'Reason', 'རྒྱུ་མཚན།'], (r) => r.reason],
  ['created', 18, ['申请时间', 'Requested', 'ཞུ་དུས།'], (r) => dateCell(r.created)],
  ['scheduledTime', 18, ['会诊时间', 'Scheduled', 'གཏན་འཁེལ་དུས་ཚོད།'], (r) => dateCell(r.scheduledTime)],
  ['paymentStatus', 10, ['支付状态', 'Payment', 'རིན་སྤྲོད།'], (r, l) => PAYMENT_STATUS[r.paymentStatus ?? 0]?.[l] ?? ''],
  ['rating', 8, ['评分', 'Rating', 'སྐར་གྲངས།'], (r) => r.ratingScore ?? null],
]);

export function consultationWorkbook(rows: readonly ConsultationListItem[], lang: Language, timeZone: string): Promise<Buffer> {
  return writeWorkbook({ sheet: SHEET, columns: COLUMNS, rows, lang, timeZone });
}
