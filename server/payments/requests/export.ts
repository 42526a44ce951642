import type { Language } from '../../../contract/constants';
import { formatYuan, type ReportOrder } from '../../../contract/payments';
import { writeWorkbook, type Labels, type SheetColumn } from '../../http/workbook';

/**
 * The order list as an .xlsx workbook (areas §5: at most 1000 order rows): the spec's "order / payment" fields
 * (areas §3) in its order, amounts in yuan (formatYuan: integer arithmetic), times as date cells in the asker's zone.
 */

const PAYMENT: Labels[] = [
  { chs: '未支付', en: 'Unpaid', tib: 'རིན་མ་སྤྲད།' },
  { chs: '已支付', en: 'Paid', tib: 'རིན་སྤྲད་ཟིན།' },
  { chs: '退款中', en: 'Refunding', tib: 'ཕྱིར་སློག་བྱེད་བཞིན།' },
  { chs: '已退款', en: 'Refunded', tib: 'ཕྱིར་སློག་ཟིན།' },
];
const CHANNEL: Record<string, Labels> = {
  weixin: { chs: '微信', en: 'WeChat', tib: 'སྐད་འཕྲིན།' },
  credit: { chs: '余额', en: 'Credit', tib: 'ལྷག་འབབ།' },
  plan: { chs: '套餐', en: 'Plan', tib: 'ཐུམ་སྒྲིལ།' },
  free: { chs: '免费', en: 'Free', tib: 'རིན་མེད།' },
};
const TYPE: Record<string, Labels> = {
  expert: { chs: '专家报告', en: 'Expert report', tib: 'ཆེད་མཁས་སྙན་ཞུ།' },
  remote: { chs: '远程报告', en: 'Remote report', tib: 'རྒྱང་རིང་སྙན་ཞུ།' },
};
const GENDER: Record<string, Labels> = {
  M: { chs: '男', en: 'Male', tib: 'ཕོ།' },
  F: { chs: '女', en: 'Female', tib: 'མོ།' },
  U: { chs: '未知', en: 'Unknown', tib: 'མི་ཤེས།' },
};
const SHEET: Labels = { chs: '订单', en: 'Orders', tib: 'ཉོ་ཐོ།' };

type Column = SheetColumn<ReportOrder>;

const time = (s: string | null): Date | null => (s ? new Date(s) : null);

const COLUMNS: Column[] = [
  { key: 'requestNo', width: 18, label: { chs: '申请单号', en: 'Request no.', tib: 'ཞུ་ཡིག་ཨང་།' }, value: (r) => r.requestNo },
  { key: 'type', width: 12, label: { chs: '类型', en: 'Type', tib: 'རིགས།' }, value: (r, l) => TYPE[r.type]?.[l] ?? r.type },
  { key: 'paidDescription', width: 24, label: { chs: '支付说明', en: 'Payment description', tib: 'རིན་སྤྲོད་འགྲེལ་བཤད།' }, value: (r) => r.paidDescription },
  { key: 'price', width: 10, label: { chs: '价格（元）', en: 'Price (yuan)', tib: 'གོང་ཚད། (ཡོན།)' }, value: (r) => formatYuan(r.amountFen) },
  { key: 'patientName', width: 14, label: { chs: '患者姓名', en: 'Patient', tib: 'ནད་པའི་མིང་།' }, value: (r) => r.patientName },
  { key: 'patientGender', width: 8, label: { chs: '性别', en: 'Gender', tib: 'ཕོ་མོ།' }, value: (r, l) => GENDER[r.patientGender]?.[l] ?? r.patientGender },
  { key: 'patientAge', width: 8, label: { chs: '年龄', en: 'Age', tib: 'ལོ་ཚད།' }, value: (r) => r.patientAge },
  { key: 'applicantName', width: 12, label: { chs: '申请人', en: 'Applicant', tib: 'ཞུ་མཁན།' }, value: (r) => r.applicantName },
  { key: 'email', width: 22, label: { chs: '邮箱', en: 'Email', tib: 'གློག་འཕྲིན།' }, value: (r) => r.email },
  { key: 'mobile', width: 14, label: { chs: '手机', en: 'Mobile', tib: 'ལག་ཁྱེར་ཁ་པར།' }, value: (r) => r.mobile },
  { key: 'created', width: 18, label: { chs: '申请时间', en: 'Created', tib: 'ཞུ་དུས།' }, value: (r) => time(r.created) },
  { key: 'paidAt', width: 18, label: { chs: '支付时间', en: 'Paid at', tib: 'རིན་སྤྲད་དུས།' }, value: (r) => time(r.paidAt) },
  { key: 'reason', width: 30, label: { chs: '申请原因', en: 'Reason', tib: 'རྒྱུ་མཚན།' }, value: (r) => r.reason },
  { key: 'refundNo', width: 20, label: { chs: '退款单号', en: 'Refund no.', tib: 'ཕྱིར་སློག་ཨང་།' }, value: (r) => r.refundNo },
  { key: 'refundAt', width: 18, label: { chs: '退款时间', en: 'Refunded at', tib: 'ཕྱིར་སློག་དུས།' }, value: (r) => time(r.refundAt) },
  { key: 'amount', width: 10, label: { chs: '金额（元）', en: 'Amount (yuan)', tib: 'དངུལ་འབོར། (ཡོན།)' }, value: (r) => formatYuan(r.paymentStatus === 0 ? 0 : r.amountFen) },
  { key: 'refundReason', width: 24, label: { chs: '退款原因', en: 'Refund reason', tib: 'ཕྱིར་སློག་རྒྱུ་མཚན།' }, value: (r) => r.refundReason },
  { key: 'refundOperatorName', width: 12, label: { chs: '操作人', en: 'Operator', tib: 'བཀོལ་སྤྱོད་པ།' }, value: (r) => r.refundOperatorName },
  { key: 'transactionId', width: 28, label: { chs: '交易号', en: 'Transaction id', tib: 'ཚོང་འབྲེལ་ཨང་།' }, value: (r) => r.transactionId },
  { key: 'channel', width: 10, label: { chs: '支付方式', en: 'Channel', tib: 'རིན་སྤྲོད་ཐབས།' }, value: (r, l) => (r.channel ? CHANNEL[r.channel]?.[l] ?? r.channel : null) },
  { key: 'fromBucketName', width: 22, label: { chs: '申请机构', en: 'From', tib: 'ཞུ་མཁན་ཚོགས་པ།' }, value: (r) => r.fromBucketName },
  { key: 'toBucketName', width: 22, label: { chs: '专家机构', en: 'To', tib: 'ཆེད་མཁས་ཚོགས་པ།' }, value: (r) => r.toBucketName },
  { key: 'paymentStatus', width: 10, label: { chs: '支付状态', en: 'Payment status', tib: 'རིན་སྤྲོད་གནས་སྟངས།' }, value: (r, l) => PAYMENT[r.paymentStatus]?.[l] ?? String(r.paymentStatus) },
];

export function orderWorkbook(rows: readonly ReportOrder[], lang: Language, timeZone: string): Promise<Buffer> {
  return writeWorkbook({ sheet: SHEET, columns: COLUMNS, rows, lang, timeZone });
}
