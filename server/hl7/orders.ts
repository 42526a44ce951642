import { and, asc, eq } from 'drizzle-orm';
import { registryCreateInput, registryUpdateInput, type RegistryExamLine, type RegistryRow } from '../../contract/registry';
import type { Access } from '../access/access';
import { procedureSteps, procedures, registrations } from '../db/schema';
import type { Deps } from '../deps';
import { parse } from '../http/validate';
import { registryDesk } from '../registry/access';
import { loadRegistration } from '../registry/lines';
import { cancelLine } from '../registry/status';
import { createRegistration, updateRegistration } from '../registry/write';
import { appError, reject } from './ack';
import { read, type Hl7Message, type Hl7Segment } from './message';
import { instantOfTs, patientOf } from './patient';
import type { Applied } from './inboundTypes';

/**
 * ORM^O01 / OMI^O23 → registry lines, through the desk's own write path (server/registry/write.ts, status.ts) and so
 * the registration machine and the desk's rules and catalogue codes: at most 5 exams, the patient source and its id,
 * not before today. One message is one registration, keyed by the HIS order number (ORC-2 placer order number → the
 * registration's outside order id, found by `registry/findbyorderid`). Each ORC/OBR pair is one exam line; OBR-4's
 * code is one of the organisation's procedures (by code) → its first procedure step, else its modality.
 * Order control (ORC-1): NW new; XO and SC change (the lines still Registered/Scheduled follow the order; lines past
 * that stay); CA and OC cancel every line (the machine decides: a Performed line cannot be, and nothing is cancelled).
 */
interface OrderGroup { orc: Hl7Segment; obr: Hl7Segment | null; tq1: Hl7Segment | null; index: number }

function groupsOf(msg: Hl7Message): OrderGroup[] {
  const groups: OrderGroup[] = [];
  for (const seg of msg.segments) {
    if (seg.name === 'ORC') groups.push({ orc: seg, obr: null, tq1: null, index: groups.length + 1 });
    else if (seg.name === 'OBR' && groups.length > 0 && !groups.at(-1)!.obr) groups.at(-1)!.obr = seg;
    else if (seg.name === 'TQ1' && groups.length > 0 && !groups.at(-1)!.tq1) groups.at(-1)!.tq1 = seg;
  }
  return groups;
}

const CONTROLS = { NW: 'new', XO: 'change', SC: 'change', CA: 'cancel', OC: 'cancel' } as const;

export async function applyOrder(deps: Deps, access: Access, bucketId: number, msg: Hl7Message): Promise<Applied> {
  const groups = groupsOf(msg);
  if (groups.length === 0) throw reject('Hl7MissingSegment', '100', 'the message has no ORC segment', 'ORC');
  const controls = [...new Set(groups.map((g) => read(msg, g.orc, 1).trim().toUpperCase()))];
  const control = controls[0]!;
  if (controls.length > 1 || !(control in CONTROLS)) {
    throw appError('Hl7OrderControl', '103', `order control ${controls.join(', ')} is not one of NW, XO, SC, CA, OC (one per message)`, 'ORC^1^1');
  }
  const first = groups[0]!;
  const orderId = (read(msg, first.orc, 2) || (first.obr ? read(msg, first.obr, 2) : '')).trim();
  if (!orderId) throw reject('Hl7MissingField', '101', 'ORC-2 (placer order number) is empty', 'ORC^1^2');
  if (orderId.length > 64) throw reject('Hl7MissingField', '102', 'ORC-2 is longer than 64 characters', 'ORC^1^2');
  const patient = patientOf(msg);
  const kind = CONTROLS[control as keyof typeof CONTROLS];
  const existing = await registrationOf(deps, bucketId, orderId);
  const applied = { patientId: patient.patientId ?? null, orderId };

  if (kind === 'cancel') {
    if (!existing) throw appError('Hl7UnknownOrder', '204', `no registration has the order number ${orderId}`, 'ORC^1^2');
    return { ...applied, registrationId: await cancelOrder(deps, access, existing, orderId, reasonOf(msg, first.orc, control)) };
  }
  const desk = await registryDesk(deps.db, access, bucketId, kind === 'new' ? 'registry_create' : 'registry_update');
  const lines = await linesOf(deps, msg, groups, bucketId, desk.timeZone);
  if (kind === 'new') {
    if (existing) throw appError('Hl7OrderExists', '205', `the order number ${orderId} is already registration ${existing}`, 'ORC^1^2');
    const input = parse(registryCreateInput, { bucketId, patient, exams: lines, orderId });
    const reg = await createRegistration(deps, access, input);
    return { ...applied, registrationId: reg.id };
  }
  if (!existing) throw appError('Hl7UnknownOrder', '204', `no registration has the order number ${orderId}`, 'ORC^1^2');
  const current = await loadRegistration(deps.db, existing, desk.rights);
  const used = new Set<number>();
  const exams: RegistryExamLine[] = [];
  for (const line of lines) {
    // The same step (or modality) as a line of the registration: that line, changed in place (or left as it is
    // when it is past Registered/Scheduled — the desk keeps those, and so does the order).
    const same = current.lines.find((l) => !used.has(l.examId) && l.status !== 'Cancelled'
      && (line.procedureStepId ? l.procedureStep?.id === line.procedureStepId : !l.procedureStep && l.modality === line.modality));
    if (same) used.add(same.examId);
    if (same && !editable(same)) continue;
    exams.push(same ? { ...line, examId: same.examId, scheduledTime: keepTime(same, line) } : line);
  }
  const input = parse(registryUpdateInput, { registrationId: existing, version: current.version, patient, exams, orderId });
  await updateRegistration(deps, access, input);
  return { ...applied, registrationId: existing };
}

const editable = (l: RegistryRow) => l.status === 'Registered' || l.status === 'Scheduled';
/** An unchanged time stays as saved, so a line booked earlier today is not refused as "in the past". */
const keepTime = (l: RegistryRow, line: RegistryExamLine) =>
  (new Date(line.scheduledTime).getTime() === new Date(l.scheduledTime).getTime() ? l.scheduledTime : line.scheduledTime);

async function registrationOf(deps: Deps, bucketId: number, orderId: string): Promise<number | null> {
  const [reg] = await deps.db.select({ id: registrations.id }).from(registrations)
    .where(and(eq(registrations.bucketId, bucketId), eq(registrations.orderId, orderId))).orderBy(asc(registrations.id)).limit(1);
  return reg?.id ?? null;
}

function reasonOf(msg: Hl7Message, orc: Hl7Segment, control: string): string {
  const text = (read(msg, orc, 16, 2) || read(msg, orc, 16, 1)).trim();
  return (text || `HIS order control ${control}`).slice(0, 256);
}

async function cancelOrder(deps: Deps, access: Access, registrationId: number, orderId: string, reason: string): Promise<number> {
  const [reg] = await deps.db.select({ bucketId: registrations.bucketId }).from(registrations).where(eq(registrations.id, registrationId));
  const desk = await registryDesk(deps.db, access, reg!.bucketId, 'registry_update');
  let current = await loadRegistration(deps.db, registrationId, desk.rights);
  const open = current.lines.filter((l) => l.status !== 'Cancelled');
  // All or nothing: a line the machine will not cancel (Performed) refuses the whole order before any is cancelled.
  const stuck = open.find((l) => !l.transitions.includes('cancel'));
  if (stuck) throw appError('Hl7OrderControl', '207', `InvalidTransition: line ${stuck.accessionNumber} of order ${orderId} is ${stuck.status} and cannot be cancelled`, 'ORC^1^1');
  for (const line of open) current = await cancelLine(deps, access, line.examId, current.version, reason);
  return registrationId;
}

async function linesOf(deps: Deps, msg: Hl7Message, groups: OrderGroup[], bucketId: number, timeZone: string): Promise<RegistryExamLine[]> {
  const now = deps.clock.now();
  const out: RegistryExamLine[] = [];
  for (const g of groups) {
    if (!g.obr) throw reject('Hl7MissingSegment', '100', `order ${g.index} (ORC) has no OBR segment`, `ORC^${g.index}`);
    const code = (read(msg, g.obr, 4, 1) || read(msg, g.obr, 4, 4)).trim();
    if (!code) throw reject('Hl7MissingField', '101', `OBR-4 (universal service identifier) of order ${g.index} is empty`, `OBR^${g.index}^4`);
    const [proc] = await deps.db.select({ id: procedures.id, modality: procedures.modality }).from(procedures)
      .where(and(eq(procedures.bucketId, bucketId), eq(procedures.code, code)));
    if (!proc) throw appError('Hl7UnknownProcedure', '103', `OBR-4 code ${code} is not one of the organisation's procedures`, `OBR^${g.index}^4`);
    const [step] = await deps.db.select({ id: procedureSteps.id }).from(procedureSteps)
      .where(and(eq(procedureSteps.bucketId, bucketId), eq(procedureSteps.procedureId, proc.id))).orderBy(asc(procedureSteps.sortOrder), asc(procedureSteps.id)).limit(1);
    const ts = (g.tq1 ? read(msg, g.tq1, 7) : '') || read(msg, g.orc, 7, 4) || read(msg, g.obr, 27, 4) || read(msg, g.obr, 36);
    const at = ts ? instantOfTs(ts, timeZone) : now;
    if (!at) throw reject('Hl7MissingField', '102', `the order's start time is not a date: ${ts}`, `OBR^${g.index}^27`);
    const priority = ((g.tq1 ? read(msg, g.tq1, 9) : '') || read(msg, g.orc, 7, 6) || read(msg, g.obr, 27, 6) || read(msg, g.obr, 5)).trim().toUpperCase();
    out.push({
      ...(step ? { procedureStepId: step.id } : { modality: proc.modality }),
      scheduledTime: (at.getTime() < now.getTime() ? now : at).toISOString(),
      urgentFlag: priority === 'S' || priority === 'STAT' || priority === 'A',
    });
  }
  return out;
}
