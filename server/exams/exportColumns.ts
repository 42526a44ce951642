import type { Language } from '../../contract/constants';
import type { ExamListItem } from '../../contract/exams';
import type { Labels, SheetColumn } from '../http/workbook';

/**
 * The columns of the exam export (core §2 "export of up to 3000 rows") in the three languages. They live on the
 * server because the file is made here; the worklist's own column headers are the client's locale texts.
 */
export type ExportColumn = SheetColumn<ExamListItem>;

const STATUS: Record<string, Labels> = {
  none: { chs: '未写', en: 'Not written', tib: 'མ་བྲིས།' },
  locked: { chs: '编辑中', en: 'Being edited', tib: 'རྩོམ་སྒྲིག་བྱེད་བཞིན།' },
  partial: { chs: '草稿', en: 'Draft', tib: 'ཟིན་བྲིས།' },
  final: { chs: '待审核', en: 'Submitted', tib: 'ཞིབ་བཤེར་སྒུག་བཞིན།' },
  corrected: { chs: '已审核', en: 'Approved', tib: 'ཆོག་མཆན་ཐོབ།' },
  hold: { chs: '已驳回', en: 'Rejected', tib: 'ཕྱིར་སློག' },
  cancelled: { chs: '已撤回', en: 'Recalled', tib: 'ཕྱིར་བསྡུས།' },
  printed: { chs: '已打印', en: 'Printed', tib: 'པར་བསྐྲུན་ཟིན།' },
  advised: { chs: '已建议', en: 'Advised', tib: 'གྲོས་འགོ་བཏོན་ཟིན།' },
};
const GENDER: Record<string, Labels> = {
  M: { chs: '男', en: 'Male', tib: 'ཕོ།' },
  F: { chs: '女', en: 'Female', tib: 'མོ།' },
  O: { chs: '其他', en: 'Other', tib: 'གཞན།' },
  U: { chs: '未知', en: 'Unknown', tib: 'མི་ཤེས།' },
  MS: { chs: '雄(绝育)', en: 'Male (neutered)', tib: 'ཕོ། (སྐྱེ་འཕེལ་བཀག)' },
  FS: { chs: '雌(绝育)', en: 'Female (spayed)', tib: 'མོ། (སྐྱེ་འཕེལ་བཀག)' },
};
const SOURCE: Record<string, Labels> = {
  I: { chs: '住院', en: 'Inpatient', tib: 'སྨན་ཁང་དུ་བསྡད་པ།' },
  O: { chs: '门诊', en: 'Outpatient', tib: 'སྒོ་ཞིབ།' },
  E: { chs: '急诊', en: 'Emergency', tib: 'ཛ་དྲག' },
  P: { chs: '体检', en: 'Physical exam', tib: 'ལུས་ཞིབ།' },
  NO: { chs: '夜诊', en: 'Night clinic', tib: 'མཚན་མོའི་སྒོ་ཞིབ།' },
};
const ORIGIN: Record<string, Labels> = {
  expert: { chs: '专家', en: 'Expert', tib: 'ཆེད་མཁས།' },
  remote: { chs: '远程', en: 'Remote', tib: 'རྒྱང་རིང་།' },
  inhouse: { chs: '本院', en: 'In-house', tib: 'སྨན་ཁང་རང་།' },
};
const YES: Labels = { chs: '是', en: 'Yes', tib: 'ཡིན།' };
const NO: Labels = { chs: '否', en: 'No', tib: 'མིན།' };

const coded = (table: Record<string, Labels>, code: string | null, lang: Language) => (code === null ? null : table[code]?.[lang] ?? code);
const time = (iso: string | null) => (iso === null ? null : new Date(iso));

export const EXPORT_COLUMNS: ExportColumn[] = [
  { key: 'id', width: 10, label: { chs: '检查ID', en: 'Exam ID', tib: 'ཞིབ་བཤེར་ཨང་།' }, value: (r) => r.id },
  { key: 'bucketName', width: 24, label: { chs: '机构', en: 'Organisation', tib: 'ལས་ཁུངས།' }, value: (r) => r.bucketName },
  { key: 'patientName', width: 14, label: { chs: '姓名', en: 'Patient name', tib: 'ནད་པའི་མིང་།' }, value: (r) => r.patientName },
  { key: 'patientId', width: 14, label: { chs: '患者ID', en: 'Patient ID', tib: 'ནད་པའི་ཨང་།' }, value: (r) => r.patientId },
  { key: 'patientGender', width: 8, label: { chs: '性别', en: 'Gender', tib: 'ཕོ་མོ།' }, value: (r, l) => coded(GENDER, r.patientGender, l) },
  { key: 'visitAge', width: 8, label: { chs: '年龄', en: 'Age', tib: 'ལོ་ཚད།' }, value: (r) => r.visitAge },
  { key: 'patientSource', width: 10, label: { chs: '患者来源', en: 'Patient source', tib: 'ནད་པའི་འབྱུང་ཁུངས།' }, value: (r, l) => coded(SOURCE, r.patientSource, l) },
  { key: 'accessionNumber', width: 18, label: { chs: '检查号', en: 'Accession number', tib: 'ཞིབ་བཤེར་ཐོ་ཨང་།' }, value: (r) => r.accessionNumber },
  { key: 'modality', width: 8, label: { chs: '设备类型', en: 'Modality', tib: 'ཡོ་བྱད་རིགས།' }, value: (r) => r.modality },
  { key: 'bodyPart', width: 12, label: { chs: '检查部位', en: 'Body part', tib: 'ལུས་ཀྱི་ཆ་ཤས།' }, value: (r) => r.bodyPart },
  { key: 'studyDescription', width: 24, label: { chs: '检查描述', en: 'Study description', tib: 'ཞིབ་བཤེར་འགྲེལ་བཤད།' }, value: (r) => r.studyDescription },
  { key: 'examTime', width: 18, label: { chs: '检查时间', en: 'Exam time', tib: 'ཞིབ་བཤེར་དུས་ཚོད།' }, value: (r) => time(r.examTime) },
  { key: 'created', width: 18, label: { chs: '登记时间', en: 'Created', tib: 'ཐོ་འགོད་དུས་ཚོད།' }, value: (r) => time(r.created) },
  { key: 'applyDept', width: 12, label: { chs: '申请科室', en: 'Requesting department', tib: 'རེ་ཞུ་བྱེད་པའི་སྡེ་ཚན།' }, value: (r) => r.applyDept },
  { key: 'clinicImpression', width: 20, label: { chs: '临床诊断', en: 'Clinical impression', tib: 'ནད་ཞིབ་ཚོད་དཔག' }, value: (r) => r.clinicImpression },
  { key: 'urgentFlag', width: 8, label: { chs: '加急', en: 'Urgent', tib: 'ཛ་དྲག' }, value: (r, l) => (r.urgentFlag ? YES : NO)[l] },
  { key: 'reportSource', width: 10, label: { chs: '报告来源', en: 'Report source', tib: 'སྙན་ཞུའི་འབྱུང་ཁུངས།' }, value: (r, l) => coded(ORIGIN, r.reportSource, l) },
  { key: 'reportStatus', width: 10, label: { chs: '报告状态', en: 'Report status', tib: 'སྙན་ཞུའི་གནས་སྟངས།' }, value: (r, l) => coded(STATUS, r.reportStatus, l) },
  { key: 'reportCreatorName', width: 12, label: { chs: '报告医生', en: 'Reporter', tib: 'སྙན་ཞུ་བྲིས་མཁན།' }, value: (r) => r.reportCreatorName },
  { key: 'assigneeName', width: 12, label: { chs: '分配给', en: 'Assignee', tib: 'བགོས་ཡུལ།' }, value: (r) => r.assigneeName },
  { key: 'hasImage', width: 8, label: { chs: '有影像', en: 'Has images', tib: 'པར་རིས་ཡོད།' }, value: (r, l) => (r.hasImage ? YES : NO)[l] },
];

export const SHEET_NAME: Labels = { chs: '检查列表', en: 'Exams', tib: 'ཞིབ་བཤེར་ཐོ།' };
