import type { ExamListItem } from '../../contract/exams';
import { dateCell, sheetColumns, wordOf, wordTable, words, YES_NO } from '../http/sheetColumns';

/**
 * The columns of the exam export (core §2 "export of up to 3000 rows") in the three languages. They live on the
 * server because the file is made here; the worklist's own column headers are the client's locale texts.
 */
const STATUS = wordTable<string>({
  none: ['未写', 'Not written', 'མ་བྲིས།'],
  locked: ['编辑中', 'Being edited', 'རྩོམ་སྒྲིག་བྱེད་བཞིན།'],
  partial: ['草稿', 'Draft', 'ཟིན་བྲིས།'],
  final: ['待审核', 'Submitted', 'ཞིབ་བཤེར་སྒུག་བཞིན།'],
  corrected: ['已审核', 'Approved', 'ཆོག་མཆན་ཐོབ།'],
  hold: ['已驳回', 'Rejected', 'ཕྱིར་སློག'],
  cancelled: ['已撤回', 'Recalled', 'ཕྱིར་བསྡུས།'],
  printed: ['已打印', 'Printed', 'པར་བསྐྲུན་ཟིན།'],
  advised: ['已建议', 'Advised', 'གྲོས་འགོ་བཏོན་ཟིན།'],
});
const GENDER = wordTable<string>({
  M: ['男', 'Male', 'ཕོ།'],
  F: ['女', 'Female', 'མོ།'],
  O: ['其他', 'Other', 'གཞན།'],
  U: ['未知', 'Unknown', 'མི་ཤེས།'],
  MS: ['雄(绝育)', 'Male (neutered)', 'ཕོ། (སྐྱེ་འཕེལ་བཀག)'],
  FS: ['雌(绝育)', 'Female (spayed)', 'མོ། (སྐྱེ་འཕེལ་བཀག)'],
});
const SOURCE = wordTable<string>({
  I: ['住院', 'Inpatient', 'སྨན་ཁང་དུ་བསྡད་པ།'],
  O: ['门诊', 'Outpatient', 'སྒོ་ཞིབ།'],
  E: ['急诊', 'Emergency', 'ཛ་དྲག'],
  P: ['体检', 'Physical exam', 'ལུས་ཞིབ།'],
  NO: ['夜诊', 'Night clinic', 'མཚན་མོའི་སྒོ་ཞིབ།'],
});
const ORIGIN = wordTable<string>({
  expert: ['专家', 'Expert', 'ཆེད་མཁས།'],
  remote: ['远程', 'Remote', 'རྒྱང་རིང་།'],
  inhouse: ['本院', 'In-house', 'སྨན་ཁང་རང་།'],
});

export const EXPORT_COLUMNS = sheetColumns<ExamListItem>([
  ['id', 10, ['检查ID', 'Exam ID', 'ཞིབ་བཤེར་ཨང་།'], (r) => r.id],
  ['bucketName', 24, ['机构', 'Organisation', 'ལས་ཁུངས།'], (r) => r.bucketName],
  ['patientName', 14, ['姓名', 'Patient name', 'ནད་པའི་མིང་།'], (r) => r.patientName],
  ['patientId', 14, ['患者ID', 'Patient ID', 'ནད་པའི་ཨང་།'], (r) => r.patientId],
  ['patientGender', 8, ['性别', 'Gender', 'ཕོ་མོ།'], (r, l) => wordOf(GENDER, r.patientGender, l)],
  ['visitAge', 8, ['年龄', 'Age', 'ལོ་ཚད།'], (r) => r.visitAge],
  ['patientSource', 10, ['患者来源', 'Patient source', 'ནད་པའི་འབྱུང་ཁུངས།'], (r, l) => wordOf(SOURCE, r.patientSource, l)],
  ['accessionNumber', 18, ['检查号', 'Accession number', 'ཞིབ་བཤེར་ཐོ་ཨང་།'], (r) => r.accessionNumber],
  ['modality', 8, ['设备类型', 'Modality', 'ཡོ་བྱད་རིགས།'], (r) => r.modality],
  ['bodyPart', 12, ['检查部位', 'Body part', 'ལུས་ཀྱི་ཆ་ཤས།'], (r) => r.bodyPart],
  ['studyDescription', 24, ['检查描述', 'Study description', 'ཞིབ་བཤེར་འགྲེལ་བཤད།'], (r) => r.studyDescription],
  ['examTime', 18, ['检查时间', 'Exam time', 'ཞིབ་བཤེར་དུས་ཚོད།'], (r) => dateCell(r.examTime)],
  ['created', 18, ['登记时间', 'Created', 'ཐོ་འགོད་དུས་ཚོད།'], (r) => dateCell(r.created)],
  ['applyDept', 12, ['申请科室', 'Requesting department', 'རེ་ཞུ་བྱེད་པའི་སྡེ་ཚན།'], (r) => r.applyDept],
  ['clinicImpression', 20, ['临床诊断', 'Clinical impression', 'ནད་ཞིབ་ཚོད་དཔག'], (r) => r.clinicImpression],
  ['urgentFlag', 8, ['加急', 'Urgent', 'ཛ་དྲག'], (r, l) => (r.urgentFlag ? YES_NO.yes : YES_NO.no)[l]],
  ['reportSource', 10, ['报告来源', 'Report source', 'སྙན་ཞུའི་འབྱུང་ཁུངས།'], (r, l) => wordOf(ORIGIN, r.reportSource, l)],
  ['reportStatus', 10, ['报告状态', 'Report status', 'སྙན་ཞུའི་གནས་སྟངས།'], (r, l) => wordOf(STATUS, r.reportStatus, l)],
  ['reportCreatorName', 12, ['报告医生', 'Reporter', 'སྙན་ཞུ་བྲིས་མཁན།'], (r) => r.reportCreatorName],
  ['assigneeName', 12, ['分配给', 'Assignee', 'བགོས་ཡུལ།'], (r) => r.assigneeName],
  ['hasImage', 8, ['有影像', 'Has images', 'པར་རིས་ཡོད།'], (r, l) => (r.hasImage ? YES_NO.yes : YES_NO.no)[l]],
]);

export const SHEET_NAME = words(['检查列表', 'Exams', 'ཞིབ་བཤེར་ཐོ།']);
