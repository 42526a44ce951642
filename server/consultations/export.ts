import type { Language } from '../../contract/constants';
import type { ConsultationListItem } from '../../contract/consultations';
import { writeWorkbook, type Labels, type SheetColumn } from '../http/workbook';

/**
 * The consultation list as an .xlsx workbook (areas §5 exports, at most CONSULTATION_EXPORT_MAX rows): one sheet, a
 * frozen bold header, times as real date cells. The labels live here because the file is made here.
 */

const STATUS: Labels[] = [
  { chs: '待处理', en: 'Pending', tib: 'སྒུག་བཞིན།' },
  { chs: '已预约', en: 'Scheduled', tib: 'དུས་ཚོད་གཏན་འཁེལ།' },
  { chs: '待确认', en: 'Awaiting approval', tib: 'ཆོག་མཆན་སྒུག་བཞིན།' },
  { chs: '已完成', en: 'Completed', tib: 'ལེགས་གྲུབ།' },
  { chs: '已取消', en: 'Canceled', tib: 'མེད་པར་བཟོས།' },
];
const PAYMENT: Labels[] = [
  { chs: '未支付', en: 'Unpaid', tib: 'རིན་མ་སྤྲད།' },
  { chs: '已支付', en: 'Paid', tib: 'རིན་སྤྲད་ཟིན།' },
  { chs: '退款中', en: 'Refunding', tib: 'ཕྱིར་སློག་བྱེད་བཞིན།' },
  { chs: '已退款', en: 'Refunded', tib: 'ཕྱིར་སློག་ཟིན།' },
];
const SHEET: Labels = { chs: '会诊', en: 'Consultations', tib: 'གྲོས་བསྡུར།' };

type Column = SheetColumn<ConsultationListItem>;

const COLUMNS: Column[] = [
  { key: 'id', width: 8, label: { chs: '编号', en: 'No.', tib: 'ཨང་།' }, value: (r) => r.id },
  { key: 'patientName', width: 14, label: { chs: '患者姓名', en: 'Patient', tib: 'ནད་པའི་མིང་།' }, value: (r) => r.patientName },
  { key: 'status', width: 12, label: { chs: '状态', en: 'Status', tib: 'གནས་སྟངས།' }, value: (r, l) => STATUS[r.status]?.[l] ?? String(r.status) },
  { key: 'appliedBucketName', width: 22, label: { chs: '申请机构', en: 'Applicant', tib: 'ཞུ་གཏུག་པའི་ཚོགས་པ།' }, value: (r) => r.appliedBucketName },
  { key: 'targetBucketName', width: 22, label: { chs: '会诊机构', en: 'Consulted', tib: 'གྲོས་བསྡུར་ཚོགས་པ།' }, value: (r) => r.targetBucketName ?? '' },
  { key: 'reason', width: 40, label: { chs: '会诊原因', en: 'Reason', tib: 'རྒྱུ་མཚན།' }, value: (r) => r.reason },
  { key: 'created', width: 18, label: { chs: '申请时间', en: 'Requested', tib: 'ཞུ་དུས།' }, value: (r) => new Date(r.created) },
  { key: 'scheduledTime', width: 18, label: { chs: '会诊时间', en: 'Scheduled', tib: 'གཏན་འཁེལ་དུས་ཚོད།' }, value: (r) => (r.scheduledTime ? new Date(r.scheduledTime) : null) },
  { key: 'paymentStatus', width: 10, label: { chs: '支付状态', en: 'Payment', tib: 'རིན་སྤྲོད།' }, value: (r, l) => PAYMENT[r.paymentStatus ?? 0]?.[l] ?? '' },
  { key: 'rating', width: 8, label: { chs: '评分', en: 'Rating', tib: 'སྐར་གྲངས།' }, value: (r) => r.ratingScore ?? null },
];

export function consultationWorkbook(rows: readonly ConsultationListItem[], lang: Language, timeZone: string): Promise<Buffer> {
  return writeWorkbook({ sheet: SHEET, columns: COLUMNS, rows, lang, timeZone });
}
