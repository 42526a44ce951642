import { instantOf } from '../../contract/days';
import type { RegistryPatient } from '../../contract/registry';
import { hl7Date, read, type Hl7Message, type Hl7Segment } from './message';
import { reject } from './ack';

/**
 * PID (and PV1) → the registry's patient, as the desk would type it. The name is XPN family^given: Chinese names are
 * written family then given with no space (王^小明 → 王小明), others "FAMILY GIVEN". Sex M/F/O/U (A, N → O/U).
 * Patient class (PV1-2) I/O/E → the patient source; the visit number (PV1-19) is the inpatient/outpatient id, or
 * the patient id when the HIS sends none; the bed is PV1-3's third component.
 */
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

export function nameOf(msg: Hl7Message, pid: Hl7Segment): string {
  const family = read(msg, pid, 5, 1).trim();
  const given = read(msg, pid, 5, 2).trim();
  if (!given) return family;
  if (!family) return given;
  return CJK.test(family + given) ? `${family}${given}` : `${family} ${given}`;
}

export function sexOf(v: string): 'M' | 'F' | 'O' | 'U' {
  const s = v.trim().toUpperCase();
  if (s === 'M' || s === 'F' || s === 'O' || s === 'U') return s;
  return s === 'A' ? 'O' : 'U';
}

export function pidOf(msg: Hl7Message): Hl7Segment {
  const pid = msg.getSegment('PID');
  if (!pid) throw reject('Hl7MissingSegment', '100', 'the message has no PID segment', 'PID');
  return pid;
}

export function patientIdOf(msg: Hl7Message, pid: Hl7Segment): string {
  const id = read(msg, pid, 3, 1).trim();
  if (!id) throw reject('Hl7MissingField', '101', 'PID-3 (patient identifier list) is empty', 'PID^1^3');
  if (id.length > 64) throw reject('Hl7MissingField', '102', 'PID-3 is longer than 64 characters', 'PID^1^3');
  return id;
}

/** The demographics PID carries (name, sex, birth date), for A08 and A40 as well as orders. */
export function demographicsOf(msg: Hl7Message, pid: Hl7Segment) {
  const name = nameOf(msg, pid);
  if (!name) throw reject('Hl7MissingField', '101', 'PID-5 (patient name) is empty', 'PID^1^5');
  const dobRaw = read(msg, pid, 7, 1).trim();
  const dob = dobRaw ? hl7Date(dobRaw) : null;
  if (dobRaw && !dob) throw reject('Hl7MissingField', '102', `PID-7 is not a date: ${dobRaw}`, 'PID^1^7');
  return { patientName: name, patientGender: sexOf(read(msg, pid, 8, 1)), patientDob: dob };
}

export function patientOf(msg: Hl7Message): RegistryPatient {
  const pid = pidOf(msg);
  const patientId = patientIdOf(msg, pid);
  const pv1 = msg.getSegment('PV1');
  const klass = pv1 ? read(msg, pv1, 2, 1).trim().toUpperCase() : '';
  const visit = pv1 ? read(msg, pv1, 19, 1).trim() : '';
  const bed = pv1 ? read(msg, pv1, 3, 3).trim() : '';
  const source = klass === 'I' ? 'I' : klass === 'E' ? 'E' : 'O';
  const phone = read(msg, pid, 13, 1).trim();
  const orc = msg.getSegment('ORC');
  const dept = (orc ? read(msg, orc, 17, 2) || read(msg, orc, 17, 1) : '') || (pv1 ? read(msg, pv1, 10, 1) : '');
  const obr = msg.getSegment('OBR');
  const impression = obr ? read(msg, obr, 13, 1) : '';
  return {
    ...demographicsOf(msg, pid),
    patientId,
    ageUnit: 'Y',
    phone: /^[0-9+\- ]{1,32}$/.test(phone) ? phone : null,
    patientSource: source,
    inpatientId: source === 'I' ? (visit || patientId) : null,
    bedNum: source === 'I' ? bed.slice(0, 16) || null : null,
    outpatientId: source === 'O' ? (visit || patientId) : null,
    applyDept: dept.trim().slice(0, 64) || null,
    clinicImpression: impression.trim().slice(0, 1024) || null,
  };
}

/**
 * HL7 TS → an instant. With an offset it is exact; without, it is the organisation's wall clock (HIS clocks are
 * local). A date alone is that day at 08:00 local — the registry only checks the day.
 */
export function instantOfTs(ts: string, timeZone: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})?(\d{2})?(?:\.\d+)?)?([+-]\d{4})?$/.exec(ts.trim());
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, off] = m;
  const day = `${y}-${mo}-${d}`;
  if (hl7Date(`${y}${mo}${d}`) === null) return null;
  if (off) {
    const sign = off[0] === '-' ? -1 : 1;
    const minutes = sign * (Number(off.slice(1, 3)) * 60 + Number(off.slice(3, 5)));
    return new Date(Date.UTC(+y!, +mo! - 1, +d!, +(hh ?? 8), +(mi ?? 0), +(ss ?? 0)) - minutes * 60_000);
  }
  const at = instantOf(day, `${hh ?? '08'}:${mi ?? '00'}`, timeZone);
  return new Date(at.getTime() + Number(ss ?? 0) * 1000);
}
