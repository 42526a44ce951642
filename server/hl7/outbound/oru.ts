import { reportHtmlToText } from '../../../contract/reportHtml';
import type { Hl7Charset } from '../../../contract/hl7Outbound';
import type { exams, reports } from '../../db/schema';
import { Hl7Context, Hl7Field, buildHeader, buildMessage, buildSegment, escapeValue } from '../message';

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
const FINDINGS = ['18782-3', 'Radiology Study observation (narrative)', 'LN'];
const IMPRESSION = ['19005-8', 'Radiology Imaging study [Impression] (narrative)', 'LN'];

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
const lines = (html: string): string[][] => {
  const text = reportHtmlToText(html);
  return (text ? text.split('\n') : ['']).map((line) => [line]);
};

/**
 * The principal interpreter as NDL: its first component is a CNN, whose subcomponents are the id and the family name
 * (`rad1&李医生`). The shared builder takes components and repetitions; the subcomponents are escaped one by one here
 * and the field read back by the library.
 */
const ndl = (p: Person | null, ctx: Hl7Context) => Hl7Field.parse(p ? `${escapeValue(p.username, ctx)}${ctx.subcomponentSeparator}${escapeValue(p.name, ctx)}` : '', ctx);

/**
 * ORU^R01 (HL7 2.5.1) of an issued report: MSH, PID, ORC, OBR and two OBX — the findings and the conclusion — the
 * conclusion's OBX-8 carrying the positive flag ('A' positive, 'N' negative, empty when not said). Report HTML is
 * turned into its text lines here; the values are escaped by the shared HL7 builder (server/hl7/message.ts).
 */
export function buildOru(o: OruInput): string {
  const { exam, report, destination: d } = o;
  const ctx = new Hl7Context();
  const at = (t: Date | null) => (t ? hl7Time(t, o.timeZone) : '');
  const placer = exam.orderId ?? '';
  const filler = exam.accessionNumber || `E${exam.id}`;
  const service = [exam.modality, exam.studyDescription || [exam.modality, exam.bodyPart].filter(Boolean).join(' '), 'L'];
  const approved = at(report.approvedTime);
  const examTime = at(exam.examTime);
  const flag = report.positive === true ? 'A' : report.positive === false ? 'N' : '';
  const interpreter = o.interpreter ? [o.interpreter.username, o.interpreter.name] : '';
  const obx = (setId: number, code: string[], html: string, abnormal: string) => buildSegment('OBX', [
    String(setId), 'TX', code, '', lines(html), '', '', abnormal, '', '', o.resultStatus, '', '', examTime, '', interpreter, '', '', approved,
  ], ctx);
  const identifiers: string[][] = [
    [exam.patientId, '', '', '', 'PI'],
    ...(exam.inpatientId ? [[exam.inpatientId, '', '', '', 'IN']] : []),
    ...(exam.outpatientId ? [[exam.outpatientId, '', '', '', 'OUT']] : []),
  ];
  const msh = buildHeader({
    sendingApplication: d.sendingApplication, sendingFacility: d.sendingFacility, receivingApplication: d.receivingApplication,
    receivingFacility: d.receivingFacility, messageType: ['ORU', 'R01', 'ORU_R01'], controlId: o.controlId, charset: d.charset, time: o.now,
  });
  // The organisation's own time with its offset, as every other time of the message.
  msh.setField(7, hl7Time(o.now, o.timeZone));
  const obr = buildSegment('OBR', [
    '1', placer, filler, service, '', '', examTime, '', '', '', '', '', '', '', '', '', '', '', '', '', '', approved, '', 'RAD', o.resultStatus,
  ], ctx);
  obr.setField(32, ndl(o.interpreter, ctx));
  if (o.assistant) obr.setField(33, ndl(o.assistant, ctx));
  return buildMessage([
    msh,
    buildSegment('PID', ['1', '', identifiers, '', [exam.patientName], '', hl7Day(exam.patientDob) ?? '', sex(exam.patientGender)], ctx),
    buildSegment('ORC', ['RE', placer, filler, '', 'CM', '', '', '', approved], ctx),
    obr,
    obx(1, FINDINGS, report.finding, ''),
    obx(2, IMPRESSION, report.diagnosis, flag),
  ]).toString();
}
