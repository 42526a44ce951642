import { and, eq, inArray } from 'drizzle-orm';
import { loadAccess } from '../access/access';
import { hl7Facilities, hl7Settings } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { fromApiError, Hl7Refusal, reject } from './ack';
import { applyAdt } from './adt';
import type { Applied } from './inboundTypes';
import { claim, finish, record } from './log';
import {
  buildAck, buildHeader, buildMessage, buildSegment, decodeMessage, encodeMessage, messageTypeOf, parseMessage, read,
  type AckError, type Hl7Message,
} from './message';
import { applyOrder } from './orders';

/**
 * One inbound message, bytes in, ACK bytes out (the listener frames both). In order: decode by MSH-18, parse, the
 * version, claim the control id (a repeat gets the first ACK), the sending facility → organisation, the switch, the
 * message type → orders (./orders.ts) or ADT (./adt.ts). Every outcome is an ACK — AA applied, AE the registry
 * refused it, AR we would not take it — and a row in hl7_messages with the raw text and the ACK.
 */
const VERSIONS = new Set(['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.7.1', '2.8', '2.8.1', '2.8.2']);
const SUPPORTED = new Set(['ORM^O01', 'OMI^O23', 'ADT^A08', 'ADT^A40']);

export interface InboundContext {
  peer: string;
  log?: { warn: (msg: string) => void };
}

export async function handleInbound(deps: Deps, bytes: Buffer, ctx: InboundContext): Promise<Buffer> {
  const now = deps.clock.now();
  const decoded = decodeMessage(bytes);
  const text = decoded?.text ?? bytes.toString('latin1');
  let msg: Hl7Message;
  try {
    msg = parseMessage(text);
  } catch (err) {
    return unreadable(deps, text, ctx, (err as Error).message);
  }
  const header = msg.header;
  const charset = read(msg, header, 18);
  const controlId = read(msg, header, 10).trim().slice(0, 64);
  const facility = read(msg, header, 4, 1).trim().slice(0, 64);
  const application = read(msg, header, 3, 1).trim().slice(0, 64);
  const type = messageTypeOf(msg);
  const base = {
    direction: 'in', created: now, controlId: controlId || null, messageType: type.label.slice(0, 16), facility, application,
    charset: charset.slice(0, 32), peer: ctx.peer.slice(0, 64), raw: text,
  };
  const answer = (m: Hl7Message) => encodeMessage(m.toString() + '\r', decoded ? charset : null);

  if (!controlId) {
    const ack = buildAck(msg, 'AR', reject('Hl7MissingField', '101', 'MSH-10 (message control id) is empty', 'MSH^1^10').err);
    await record(deps, { ...base, outcome: 'rejected', ackCode: 'AR', ack: ack.toString(), errorCode: 'Hl7MissingField', error: 'MSH-10 is empty' });
    return answer(ack);
  }
  const claimed = await claim(deps, { ...base, outcome: 'pending' });
  if (!claimed.claimed) return encodeMessage(claimed.row.ack!.replace(/\r?$/, '\r'), decoded ? charset : null);

  let bucketId: number | null = null;
  let applied: Applied = {};
  let ack: Hl7Message;
  let refusal: Hl7Refusal | null = null;
  try {
    if (!decoded) throw reject('Hl7Charset', '203', `MSH-18 character set "${charset}" is not one we read`, 'MSH^1^18');
    const version = read(msg, header, 12, 1).trim();
    if (!VERSIONS.has(version)) throw reject('Hl7Version', '203', `HL7 version "${version}" is not 2.3 to 2.8`, 'MSH^1^12');
    const org = await organisationOf(deps, facility, application);
    bucketId = org.bucketId;
    if (!SUPPORTED.has(type.label)) {
      throw reject('Hl7UnsupportedType', ['ORM', 'OMI', 'ADT'].includes(type.type) ? '201' : '200',
        `${type.label || 'no message type'} is not taken (ORM^O01, OMI^O23, ADT^A08, ADT^A40)`, 'MSH^1^9');
    }
    const access = await loadAccess(deps.db, org.actingAccountId);
    applied = type.type === 'ADT'
      ? await applyAdt(deps, access, org.bucketId, msg, type.event as 'A08' | 'A40')
      : await applyOrder(deps, access, org.bucketId, msg);
    ack = buildAck(msg, 'AA');
  } catch (err) {
    refusal = err instanceof Hl7Refusal ? err
      : err instanceof ApiError ? fromApiError(err)
      : new Hl7Refusal('Hl7Internal', 'AE', '207', 'the message could not be applied');
    if (!(err instanceof Hl7Refusal) && !(err instanceof ApiError)) ctx.log?.warn(`hl7: applying ${type.label} ${controlId} failed: ${(err as Error).message}`);
    ack = buildAck(msg, refusal.ackCode, refusal.err);
  }
  // A character set we cannot write either: the ACK goes in UTF-8 and says so.
  if (!decoded) ack.header.setField(18, 'UNICODE UTF-8');
  await finish(deps, claimed.id, {
    bucketId, outcome: refusal ? (refusal.ackCode === 'AR' ? 'rejected' : 'error') : 'applied', ackCode: refusal?.ackCode ?? 'AA',
    ack: ack.toString(), errorCode: refusal?.reason.slice(0, 48) ?? null, error: refusal ? refusal.err.message : (applied.note ?? null),
    registrationId: applied.registrationId ?? null, patientId: applied.patientId?.slice(0, 64) ?? patientIdGuess(msg), orderId: applied.orderId ?? null,
  });
  return answer(ack);
}

function patientIdGuess(msg: Hl7Message): string | null {
  return read(msg, 'PID', 3, 1).trim().slice(0, 64) || null;
}

/** MSH-4 (+ MSH-3) → the organisation whose mapping names it; an exact application beats "any application". */
async function organisationOf(deps: Deps, facility: string, application: string): Promise<{ bucketId: number; actingAccountId: number }> {
  if (!facility) throw reject('Hl7UnknownFacility', '101', 'MSH-4 (sending facility) is empty', 'MSH^1^4');
  const rows = await deps.db.select({ bucketId: hl7Facilities.bucketId, application: hl7Facilities.application }).from(hl7Facilities)
    .where(and(eq(hl7Facilities.facility, facility), inArray(hl7Facilities.application, [application, ''])));
  const row = rows.find((r) => r.application === application && application !== '') ?? rows.find((r) => r.application === '');
  if (!row) throw reject('Hl7UnknownFacility', '204', `sending facility "${facility}"${application ? ` (application "${application}")` : ''} is not mapped to an organisation`, 'MSH^1^4');
  const [settings] = await deps.db.select().from(hl7Settings).where(eq(hl7Settings.bucketId, row.bucketId));
  if (!settings?.enabled) throw reject('Hl7Disabled', '207', 'HL7 orders are switched off for this organisation', 'MSH^1^4');
  if (!settings.actingAccountId) throw reject('Hl7Disabled', '207', 'no account to register orders as: an admin must save the HL7 settings', 'MSH^1^4');
  return { bucketId: row.bucketId, actingAccountId: settings.actingAccountId };
}

/** A message we could not parse at all: an AR from a header of our own (there is no MSH to answer from). */
async function unreadable(deps: Deps, text: string, ctx: InboundContext, why: string): Promise<Buffer> {
  const err: AckError = { hl7Code: '100', message: `Hl7Unreadable: ${why}` };
  const header = buildHeader({
    sendingApplication: 'RADWS', sendingFacility: 'RADWS', receivingApplication: '', receivingFacility: '',
    messageType: ['ACK'], controlId: `ACK${Date.now()}`,
  });
  const ack = buildMessage([header, buildSegment('MSA', ['AR', '', err.message.slice(0, 80)]), buildSegment('ERR', ['', '', [err.hl7Code], 'E', '', '', '', err.message])]);
  await record(deps, {
    direction: 'in', created: deps.clock.now(), controlId: null, raw: text.slice(0, 1_000_000), peer: ctx.peer.slice(0, 64),
    outcome: 'rejected', ackCode: 'AR', ack: ack.toString(), errorCode: 'Hl7Unreadable', error: err.message,
  });
  return encodeMessage(ack.toString() + '\r');
}

/** An oversize frame: nothing of it is kept but its size; the AR has our own header (we did not read its MSH). */
export async function oversize(deps: Deps, size: number, maxBytes: number, ctx: InboundContext): Promise<Buffer> {
  const message = `Hl7Oversize: the message is ${size} bytes, more than the ${maxBytes} taken`;
  const header = buildHeader({
    sendingApplication: 'RADWS', sendingFacility: 'RADWS', receivingApplication: '', receivingFacility: '',
    messageType: ['ACK'], controlId: `ACK${Date.now()}`,
  });
  const ack = buildMessage([header, buildSegment('MSA', ['AR', '', message.slice(0, 80)]), buildSegment('ERR', ['', '', ['100'], 'E', '', '', '', message])]);
  await record(deps, {
    direction: 'in', created: deps.clock.now(), controlId: null, raw: `(${size} bytes, not kept)`, peer: ctx.peer.slice(0, 64),
    outcome: 'rejected', ackCode: 'AR', ack: ack.toString(), errorCode: 'Hl7Oversize', error: message,
  });
  return encodeMessage(ack.toString() + '\r');
}
