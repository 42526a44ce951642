import type { Language } from '../../../contract/constants';
import { formatYuan, type ReportOrder } from '../../../contract/payments';
import { dateCell, PAYMENT_STATUS, sheetColumns, wordOf, wordTable, words } from '../../http/sheetColumns';
import { writeWorkbook } from '../../http/workbook';

/**
 * The order list as an .xlsx workbook (areas §5: at most 1000 order rows): the spec's "order / payment" fields
 * (areas §3) in its order, amounts in yuan (formatYuan: integer arithmetic), times as date cells in the asker's zone.
 */

const CHANNEL = wordTable<string>({
  weixin: ['微信', 'WeChat', 'སྐད་འཕྲིན།'],
  credit: ['余额', 'Credit', 'ལྷག་འབབ།'],
  plan: ['套餐', 'Plan', 'ཐུམ་སྒྲིལ།'],
  free: ['免费', 'Free', 'རིན་མེད།'],
});
const TYPE = wordTable<string>({
  expert: ['专家报告', 'Expert report', 'ཆེད་མཁས་སྙན་ཞུ།'],
  remote: ['远程报告', 'Remote report', 'རྒྱང་རིང་སྙན་ཞུ།'],
});
const GENDER = wordTable<string>({
  M: ['男', 'Male', 'ཕོ།'],
  F: ['女', 'Female', 'མོ།'],
  U: ['未知', 'Unknown', 'མི་ཤེས།'],
});
const SHEET = words(['订单', 'Orders', 'ཉོ་ཐོ།']);

const COLUMNS = sheetColumns<ReportOrder>([
  ['requestNo', 18, ['申请单号', 'Request no.', 'ཞུ་ཡིག་ཨང་།'], (r) => r.requestNo],
  ['type', 12, ['类型', 'Type', 'རིགས།'], (r, l) => wordOf(TYPE, r.type, l)],
  ['paidDescription', 24, ['支付说明', 'Payment description', 'རིན་སྤྲོད་འགྲེལ་བཤད།'], (r) => r.paidDescription],
  ['price', 10, ['价格（元）', 'Price (yuan)', 'གོང་ཚད། (ཡོན།)'], (r) => formatYuan(r.amountFen)],
  ['patientName', 14, ['患者姓名', 'Patient', 'ནད་པའི་མིང་།'], (r) => r.patientName],
  ['patientGender', 8, ['性别', 'Gender', 'ཕོ་མོ།'], (r, l) => wordOf(GENDER, r.patientGender, l)],
  ['patientAge', 8, ['年龄', 'Age', 'ལོ་ཚད།'], (r) => r.patientAge],
  ['applicantName', 12, ['申请人', 'Applicant', 'ཞུ་མཁན།'], (r) => r.applicantName],
  ['email', 22, ['邮箱', 'Email', 'གློག་འཕྲིན།'], (r) => r.email],
  ['mobile', 14, ['手机', 'Mobile', 'ལག་ཁྱེར་ཁ་པར།'], (r) => r.mobile],
  ['created', 18, ['申请时间', 'Created', 'ཞུ་དུས།'], (r) => dateCell(r.created)],
  ['paidAt', 18, ['支付时间', 'Paid at', 'རིན་སྤྲད་དུས།'], (r) => dateCell(r.paidAt)],
  ['reason', 30, ['申请原因', 'Reason', 'རྒྱུ་མཚན།'], (r) => r.reason],
  ['refundNo', 20, ['退款单号', 'Refund no.', 'ཕྱིར་སློག་ཨང་།'], (r) => r.refundNo],
  ['refundAt', 18, ['退款时间', 'Refunded at', 'ཕྱིར་སློག་དུས།'], (r) => dateCell(r.refundAt)],
  ['amount', 10, ['金额（元）', 'Amount (yuan)', 'དངུལ་འབོར། (ཡོན།)'], (r) => formatYuan(r.paymentStatus === 0 ? 0 : r.amountFen)],
  ['refundReason', 24, ['退款原因', 'Refund reason', 'ཕྱིར་སློག་རྒྱུ་མཚན།'], (r) => r.refundReason],
  ['refundOperatorName', 12, ['操作人', 'Operator', 'བཀོལ་སྤྱོད་པ།'], (r) => r.refundOperatorName],
  ['transactionId', 28, ['交易号', 'Transaction id', 'ཚོང་འབྲེལ་ཨང་།'], (r) => r.transactionId],
  ['channel', 10, ['支付方式', 'Channel', 'རིན་སྤྲོད་ཐབས།'], (r, l) => (r.channel ? wordOf(CHANNEL, r.channel, l) : null)],
  ['fromBucketName', 22, ['申请机构', 'From', 'ཞུ་མཁན་ཚོགས་པ།'], (r) => r.fromBucketName],
  ['toBucketName', 22, ['专家机构', 'To', 'ཆེད་མཁས་ཚོགས་པ།'], (r) => r.toBucketName],
  ['paymentStatus', 10, ['支付状态', 'Payment status', 'རིན་སྤྲོད་གནས་སྟངས།'], (r, l) => wordOf(PAYMENT_STATUS, r.paymentStatus, l)],
]);

export function orderWorkbook(rows: readonly ReportOrder[], lang: Language, timeZone: string): Promise<Buffer> {
  return writeWorkbook({ sheet: SHEET, columns: COLUMNS, rows, lang, timeZone });
}
