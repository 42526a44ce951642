import { reportHtmlToText } from '../../../contract/reportHtml';
import type { Hl7Charset } from '../../../contract/hl7Outbound';
import type { exams, reports } from '../../db/schema';
import { writeV2 } from './hl7v2';

/** MSH-10: the outbox row's id, prefixed so a HIS that logs it can tell our results from other senders'. */
export function controlIdFor(outboxId: number): string {
  return `RADWS${outboxId}`;
}

/** HL7 DTM in the organisation's time zone with its offset: 20260301083000+0800. */
export function hl7Time(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(at).map((p) => [p.type, p.value]));
  const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  const offsetMin = Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** Stored birth dates are YYYY-MM-DD; HL7 wants YYYYMMDD. */
const hl7Day = (day: string | null) => (day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day.replaceAll('-', '') : undefined);

/** PID-8 (HL7 table 0001): our M/F/O/U as they are, anything else unknown. */
const sex = (g: string) => (['M', 'F', 'O', 'U'].includes(g) ? g : 'U');

/** LOINC codes HIS systems expect for a radiology report's narrative parts. */
const FINDINGS = { 1: '18782-3', 2: 'Radiology Study observation (narrative)', 3: 'LN' };
const IMPRESSION = { 1: '19005-8', 2: 'Radiology Imaging study [Impression] (narrative)', 3: 'LN' };

export interface Person { id: number; username: string; name: string }

export interface OruInput {
  controlId: string;
  now: Date;
  /** 'F' on first issue, 'C' when the report was issued before (recalled and issued again). */
  resultStatus: 'F' | 'C';
  timeZone: string;
  destination: {
    sendingApplication: string; sendingFacility: string; receivingApplication: string; receivingFacility: string; charset: Hl7Charset;
  };
  exam: Pick<typeof exams.$inferSelect, 'id' | 'patientId' | 'patientName' | 'patientGender' | 'patientDob' | 'accessionNumber' | 'orderId'
    | 'modality' | 'bodyPart' | 'studyDescription' | 'examTime' | 'inpatientId' | 'outpatientId'>;
  report: Pick<typeof reports.$inferSelect, 'id' | 'finding' | 'diagnosis' | 'positive' | 'approvedTime'>;
  /** OBR-32: the radiologist who issued (approved) the report. */
  interpreter: Person | null;
  /** OBR-33: the writer, when someone else approved. */
  assistant: Person | null;
}

/** Each line of report text is one repetition of OBX-5 (TX): no formatting escapes, every receiver shows it. */
const lines = (html: string) => {
  const text = reportHtmlToText(html);
  return text ? text.split('\n') : [''];
};

/** The principal interpreter as NDL: its first component is a CNN, written as subcomponents id & family name. */
const ndl = (p: Person | null) => (p ? { 1: { 1: p.username, 2: p.name } } : undefined);
/** The same person as XCN (OBX-16): id ^ family name. */
const xcn = (p: Person | null) => (p ? [{ 1: p.username, 2: { 1: p.name } }] : undefined);

/**
 * ORU^R01 (HL7 2.5.1) of an issued report: MSH, PID, ORC, OBR and two OBX — the findings and the conclusion — the
 * conclusion's OBX-8 carrying the positive flag ('A' positive, 'N' negative, empty when not said). Report HTML is
 * turned into its text lines here; delimiters in the text are escaped by the library.
 */
export function buildOru(o: OruInput): string {
  const { exam, report, destination: d } = o;
  const at = (t: Date | null) => (t ? hl7Time(t, o.timeZone) : undefined);
  const placer = exam.orderId ? { 1: exam.orderId } : undefined;
  const filler = { 1: exam.accessionNumber || `E${exam.id}` };
  const service = { 1: exam.modality, 2: exam.studyDescription || [exam.modality, exam.bodyPart].filter(Boolean).join(' '), 3: 'L' };
  const approved = at(report.approvedTime);
  const flag = report.positive === true ? 'A' : report.positive === false ? 'N' : undefined;
  const obx = (setId: number, code: Record<number, string>, html: string, abnormal?: string) => ({
    OBX: {
      1: String(setId), 2: 'TX', 3: code, 5: lines(html), 8: abnormal ? [abnormal] : undefined, 11: o.resultStatus,
      14: at(exam.examTime) ? { 1: at(exam.examTime) } : undefined, 16: xcn(o.interpreter), 19: approved ? { 1: approved } : undefined,
    },
  });
  const identifiers = [
    { 1: exam.patientId, 5: 'PI' },
    ...(exam.inpatientId ? [{ 1: exam.inpatientId, 5: 'IN' }] : []),
    ...(exam.outpatientId ? [{ 1: exam.outpatientId, 5: 'OUT' }] : []),
  ];
  return writeV2({
    MSH: {
      1: '|', 2: '^~\\&',
      3: { 1: d.sendingApplication }, 4: { 1: d.sendingFacility }, 5: { 1: d.receivingApplication }, 6: { 1: d.receivingFacility },
      7: { 1: hl7Time(o.now, o.timeZone) }, 9: { 1: 'ORU', 2: 'R01', 3: 'ORU_R01' }, 10: o.controlId,
      11: { 1: 'P' }, 12: { 1: '2.5.1' }, 18: [d.charset],
    },
    PATIENT_RESULT: [{
      PATIENT: {
        PID: {
          1: '1', 3: identifiers, 5: [{ 1: { 1: exam.patientName } }],
          7: hl7Day(exam.patientDob) ? { 1: hl7Day(exam.patientDob) } : undefined, 8: sex(exam.patientGender),
        },
      },
      ORDER_OBSERVATION: [{
        ORC: { 1: 'RE', 2: placer, 3: filler, 5: 'CM', 9: approved ? { 1: approved } : undefined },
        OBR: {
          1: '1', 2: placer, 3: filler, 4: service, 7: at(exam.examTime) ? { 1: at(exam.examTime) } : undefined,
          22: approved ? { 1: approved } : undefined, 24: 'RAD', 25: o.resultStatus, 32: ndl(o.interpreter), 33: o.assistant ? [ndl(o.assistant)] : undefined,
        },
        OBSERVATION: [obx(1, FINDINGS, report.finding), obx(2, IMPRESSION, report.diagnosis, flag)],
      }],
    }],
  });
}
