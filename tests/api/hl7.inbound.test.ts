import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../contract/common';
import type { Hl7MessageRow, Hl7Settings } from '../../contract/hl7';
import type { Registration } from '../../contract/registry';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { startHl7Listener } from '../../server/hl7/listener';
import { encodeMessage } from '../../server/hl7/message';
import { frame } from '../../server/hl7/mllp';
import { framed, mllpExchange, send } from '../support/hl7';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * HL7 v2 orders in over MLLP (issue 36): HL7 v2.5.1-style ORM^O01 / OMI^O23 / ADT messages and hand-written edge
 * cases against the real listener: each answered AA/AE/AR with the catalogue reason in ERR-8, kept in the log, a
 * repeat answered with the first ACK and applied once; a line an order created is checked in at the desk.
 */
let s: TestServer;
let admin: string;
let registrar: string;
let hospital: number;
let port: number;
/** A procedure code of the hospital that has a procedure step, and a second one. */
let code1 = '';
let code2 = '';
let seq = 0;

const FACILITY = 'HIS_MAIN';
const cid = () => `MSG${Date.now()}${(seq += 1)}`;

interface Order {
  control?: string; orderId?: string; pid?: string; name?: string; codes?: string[]; charset?: string; version?: string;
  type?: string; facility?: string; noPid?: boolean; controlId?: string; pv1?: string;
}
function orm(o: Order = {}): { text: string; controlId: string; orderId: string } {
  const controlId = o.controlId ?? cid();
  const orderId = o.orderId ?? `HIS${controlId}`;
  const seg = [
    `MSH|^~\\&|HISAPP|${o.facility ?? FACILITY}|RADWS|RAD|20261129080000||${o.type ?? 'ORM^O01^ORM_O01'}|${controlId}|P|${o.version ?? '2.5.1'}|||||CHN${o.charset ? `|${o.charset}` : ''}`,
    ...(o.noPid ? [] : [`PID|1||${o.pid ?? 'PAT001'}^^^HIS^MR||${o.name ?? '张^三'}||19800115|M|||北京市^^^^100000||13800138000`]),
    o.pv1 ?? 'PV1|1|O|RAD^^^HOSP||||||||||||||||V0001',
  ];
  for (const [i, c] of (o.codes ?? [code1]).entries()) {
    seg.push(`ORC|${o.control ?? 'NW'}|${orderId}|||||^^^20991231090000+0800^^R||20261129080000|||D001^李^医生|||||^放射科`);
    seg.push(`OBR|${i + 1}|${orderId}||${c}^检查^LOCAL|||20261129080000|||||||||D001^李^医生`);
  }
  return { text: seg.join('\r'), controlId, orderId };
}

const find = async (orderId: string) => s.request('GET', `registry/findbyorderid?bucketId=${hospital}&orderId=${encodeURIComponent(orderId)}`, { token: registrar });
const counts = async () => {
  const [regs] = await s.db.db.select({ n: count() }).from(t.registrations);
  const [lines] = await s.db.db.select({ n: count() }).from(t.exams);
  return { regs: regs!.n, lines: lines!.n };
};

beforeAll(async () => {
  s = await startServer({ exams: 0, hl7: true });
  port = s.hl7!.port;
  admin = await s.login('admin');
  registrar = await tokenOf(s, 'registrar');
  hospital = s.ids.hospitalId;
  const steps = await s.db.db.select({ code: t.procedures.code }).from(t.procedureSteps)
    .innerJoin(t.procedures, eq(t.procedures.id, t.procedureSteps.procedureId))
    .where(and(eq(t.procedureSteps.bucketId, hospital), isNotNull(t.procedureSteps.procedureId), eq(t.procedureSteps.reportDuringExam, false)));
  code1 = steps[0]!.code;
  code2 = steps.find((x) => x.code !== code1)!.code;
  const r = await s.request('PUT', `buckets/${hospital}/hl7/settings`, { token: admin, body: { enabled: true, facilities: [{ facility: FACILITY }] } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
});
afterAll(async () => s?.close());

describe('settings', () => {
  it('keeps the switch and facilities for admins, with an audit trail; others 403, bad input 400', async () => {
    const got = await s.request('GET', `buckets/${hospital}/hl7/settings`, { token: admin });
    expect(got.body as Hl7Settings).toMatchObject({ enabled: true, facilities: [{ facility: FACILITY, application: '' }], listener: { port, tls: false } });
    expect((got.body as Hl7Settings).actingAccount?.id).toBe(s.ids.accounts.admin);
    expect((await s.request('GET', `buckets/${hospital}/hl7/settings`, { token: await tokenOf(s, 'rad1') })).status).toBe(403);
    for (const bad of [{ enabled: 'yes', facilities: [] }, { enabled: true, facilities: [{ facility: 'A|B' }] }, { enabled: true }]) {
      const r = await s.request('PUT', `buckets/${hospital}/hl7/settings`, { token: admin, body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe('ParamsError');
    }
    // One facility, one organisation: another organisation of the same admin cannot map it too.
    const taken = await s.request('PUT', `buckets/${s.ids.expertCentreId}/hl7/settings`, { token: admin, body: { enabled: true, facilities: [{ facility: FACILITY }] } });
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expect(taken.body.code).toBe('DuplicateName');
    const trail = await auditTrail(s.db.db, 'bucket', hospital);
    expect(trail.at(-1)).toMatchObject({ action: 'hl7-settings', after: { enabled: true, facilities: [{ facility: FACILITY, application: '' }] } });
  });
});

describe('orders in', () => {
  it('ORM^O01 NW: AA, a registration with the HIS order number, found by findbyorderid and checked in at the desk', async () => {
    const m = orm();
    const ack = await send(port, m.text);
    expect(ack).toMatchObject({ code: 'AA', controlId: m.controlId });
    const found = await find(m.orderId);
    expect(found.status).toBe(200);
    const reg = found.body as Registration;
    expect(reg.orderId).toBe(m.orderId);
    expect(reg.lines).toHaveLength(1);
    expect(reg.lines[0]).toMatchObject({ patientName: '张三', patientId: 'PAT001', patientGender: 'M', patientDob: '1980-01-15', patientSource: 'O', outpatientId: 'V0001' });
    const checkIn = await s.request('POST', 'exam/status', { token: registrar, body: { examId: reg.lines[0]!.examId, status: 'Arrived', version: reg.version } });
    expect(checkIn.status, JSON.stringify(checkIn.body)).toBe(200);
    expect((checkIn.body as Registration).lines[0]!.status).toBe('Arrived');
  });

  it('OMI^O23 NW with two orders: two lines', async () => {
    const m = orm({ type: 'OMI^O23^OMI_O23', codes: [code1, code2] });
    expect((await send(port, m.text)).code).toBe('AA');
    expect(((await find(m.orderId)).body as Registration).lines).toHaveLength(2);
  });

  it('undoes escape sequences and reads the first repetition of PID-3', async () => {
    const m = orm({ pid: 'ESC01^^^HIS^MR~ALT99^^^OTHER^PI', name: 'O\\F\\BRIEN\\S\\X\\T\\Y\\R\\Z\\E\\^ANN' });
    expect((await send(port, m.text)).code).toBe('AA');
    const line = ((await find(m.orderId)).body as Registration).lines[0]!;
    expect(line.patientName).toBe('O|BRIEN^X&Y~Z\\ ANN');
    expect(line.patientId).toBe('ESC01');
  });

  it('reads Chinese names in UTF-8 and in GB18030 as MSH-18 says, and answers in the same character set', async () => {
    const utf = orm({ name: '欧阳^娜娜', charset: 'UNICODE UTF-8' });
    expect((await send(port, utf.text, 'UNICODE UTF-8')).code).toBe('AA');
    expect(((await find(utf.orderId)).body as Registration).lines[0]!.patientName).toBe('欧阳娜娜');
    const gb = orm({ name: '王^小明', charset: 'GB 18030-2000' });
    const bytes = encodeMessage(gb.text, 'GB 18030-2000');
    expect(bytes.includes(Buffer.from('王', 'utf8'))).toBe(false);
    const [ack] = await mllpExchange(port, [frame(bytes)], 1);
    expect(ack!.code).toBe('AA');
    expect(ack!.text).toContain('GB 18030-2000');
    expect(((await find(gb.orderId)).body as Registration).lines[0]!.patientName).toBe('王小明');
  });

  it('takes a message split across TCP packets, and two messages in one packet (two ACKs, in order)', async () => {
    const a = orm();
    const bytes = framed(a.text);
    const parts = [bytes.subarray(0, 1), bytes.subarray(1, 40), bytes.subarray(40, bytes.length - 1), bytes.subarray(bytes.length - 1)];
    const [split] = await mllpExchange(port, parts, 1, { gapMs: 30 });
    expect(split).toMatchObject({ code: 'AA', controlId: a.controlId });
    const b = orm();
    const c = orm();
    const acks = await mllpExchange(port, [Buffer.concat([framed(b.text), framed(c.text)])], 2);
    expect(acks.map((x) => [x.code, x.controlId])).toEqual([['AA', b.controlId], ['AA', c.controlId]]);
    expect((await find(c.orderId)).status).toBe(200);
  });

  it('answers a repeat with the first ACK and applies it once', async () => {
    const m = orm();
    const first = await send(port, m.text);
    const before = await counts();
    const again = await send(port, m.text);
    expect(again.text).toBe(first.text);
    expect(await counts()).toEqual(before);
    const [row] = await s.db.db.select().from(t.hl7Messages).where(eq(t.hl7Messages.controlId, m.controlId));
    expect(row).toMatchObject({ repeats: 1, outcome: 'applied', ackCode: 'AA' });
  });

  it('XO changes the lines, CA cancels them through the machine', async () => {
    const m = orm();
    expect((await send(port, m.text)).code).toBe('AA');
    const xo = orm({ control: 'XO', orderId: m.orderId, codes: [code1, code2], name: '张^三丰' });
    expect((await send(port, xo.text)).code).toBe('AA');
    const changed = (await find(m.orderId)).body as Registration;
    expect(changed.lines).toHaveLength(2);
    expect(changed.lines.every((l) => l.patientName === '张三丰')).toBe(true);
    const ca = orm({ control: 'CA', orderId: m.orderId });
    expect((await send(port, ca.text)).code).toBe('AA');
    const cancelled = (await find(m.orderId)).body as Registration;
    expect(cancelled.lines.map((l) => l.status)).toEqual(['Cancelled', 'Cancelled']);
  });

  it('a cancel of an order with a Performed line is AE InvalidTransition and cancels nothing', async () => {
    const m = orm({ codes: [code1, code2] });
    await send(port, m.text);
    const reg = (await find(m.orderId)).body as Registration;
    const arrived = await s.request('POST', 'exam/status', { token: registrar, body: { examId: reg.lines[0]!.examId, status: 'Arrived', version: reg.version } });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
    const perf = await s.request('POST', 'exam/status', { token: registrar, body: { examId: reg.lines[0]!.examId, status: 'Performed', version: (arrived.body as Registration).version } });
    expect(perf.status, JSON.stringify(perf.body)).toBe(200);
    const ack = await send(port, orm({ control: 'CA', orderId: m.orderId }).text);
    expect(ack.code).toBe('AE');
    expect(ack.errorMessage).toMatch(/InvalidTransition/);
    expect(((await find(m.orderId)).body as Registration).lines.map((l) => l.status)).toEqual(['Performed', 'Scheduled']);
  });
});

describe('refusals: every one ACKed with its reason and nothing written', () => {
  const refused = async (text: string, code: string, reason: RegExp, hl7Code?: string) => {
    const before = await counts();
    const ack = await send(port, text);
    expect(ack.code, ack.text).toBe(code);
    expect(ack.errorMessage).toMatch(reason);
    if (hl7Code) expect(ack.errorCode).toBe(hl7Code);
    expect(await counts()).toEqual(before);
    return ack;
  };

  it('no PID: AR Hl7MissingSegment', () => refused(orm({ noPid: true }).text, 'AR', /^Hl7MissingSegment: .*PID/, '100'));
  it('a version that is not 2.x: AR Hl7Version', async () => {
    await refused(orm({ version: '3.0' }).text, 'AR', /^Hl7Version/, '203');
    await refused(orm({ version: '' }).text, 'AR', /^Hl7Version/, '203');
  });
  it('an unknown sending facility: AR Hl7UnknownFacility', () => refused(orm({ facility: 'NOBODY' }).text, 'AR', /^Hl7UnknownFacility: .*NOBODY/, '204'));
  it('an unknown procedure code: AE Hl7UnknownProcedure', () => refused(orm({ codes: ['NOPE42'] }).text, 'AE', /^Hl7UnknownProcedure: .*NOPE42/, '103'));
  it('six exams: AE RegistryTooManyExams (the desk rule and code)', () => refused(orm({ codes: Array(6).fill(code1) }).text, 'AE', /^RegistryTooManyExams/));
  it('an inpatient without a bed: AE SourceIdRequired', () => refused(orm({ pv1: 'PV1|1|I|W1^101^||||||||||||||||ZY001' }).text, 'AE', /^SourceIdRequired/));
  it('a message type not taken: AR Hl7UnsupportedType', () => refused(orm({ type: 'ORU^R01^ORU_R01' }).text, 'AR', /^Hl7UnsupportedType/, '200'));
  it('NW for an order number already registered: AE Hl7OrderExists', async () => {
    const m = orm();
    await send(port, m.text);
    await refused(orm({ orderId: m.orderId }).text, 'AE', /^Hl7OrderExists/, '205');
  });
  it('an unknown character set: AR Hl7Charset', () => refused(orm({ charset: 'KLINGON-8' }).text, 'AR', /^Hl7Charset/));
  it('not HL7 at all: AR Hl7Unreadable', async () => {
    const [ack] = await mllpExchange(port, [frame(Buffer.from('hello there'))], 1);
    expect(ack!.code).toBe('AR');
    expect(ack!.errorMessage).toMatch(/^Hl7Unreadable/);
  });
  it('an oversize message: AR Hl7Oversize, not kept, and the next message on the connection still works', async () => {
    const small = await startHl7Listener(s.deps, { port: 0, host: '127.0.0.1', maxBytes: 2048 });
    try {
      const big = orm({ name: `${'长'.repeat(2000)}^名` });
      const ok = orm();
      const acks = await mllpExchange(small.port, [Buffer.concat([framed(big.text), framed(ok.text)])], 2);
      expect(acks[0]!.code).toBe('AR');
      expect(acks[0]!.errorMessage).toMatch(/^Hl7Oversize/);
      expect(acks[1]).toMatchObject({ code: 'AA', controlId: ok.controlId });
      expect((await find(big.orderId)).status).toBe(404);
    } finally {
      await small.close();
    }
  });
  it('the organisation switched off: AR Hl7Disabled', async () => {
    await s.request('PUT', `buckets/${hospital}/hl7/settings`, { token: admin, body: { enabled: false, facilities: [{ facility: FACILITY }] } });
    try {
      await refused(orm().text, 'AR', /^Hl7Disabled/);
    } finally {
      await s.request('PUT', `buckets/${hospital}/hl7/settings`, { token: admin, body: { enabled: true, facilities: [{ facility: FACILITY }] } });
    }
  });
});

describe('ADT', () => {
  const adt = (event: string, pid: string, name: string, mrg?: string) => [
    `MSH|^~\\&|HISAPP|${FACILITY}|RADWS|RAD|20261129080000||ADT^${event}^ADT_A${event === 'A40' ? '39' : '01'}|${cid()}|P|2.5.1`,
    `EVN|${event}|20261129080000`,
    `PID|1||${pid}^^^HIS^MR||${name}||19900202|F`,
    ...(mrg ? [`MRG|${mrg}^^^HIS^MR`] : []),
  ].join('\r');

  it('A08 updates the demographics on the open lines of the patient', async () => {
    const m = orm({ pid: 'ADT08' });
    await send(port, m.text);
    expect((await send(port, adt('A08', 'ADT08', '李^四'))).code).toBe('AA');
    expect(((await find(m.orderId)).body as Registration).lines[0]).toMatchObject({ patientName: '李四', patientGender: 'F', patientDob: '1990-02-02' });
  });

  it('A40 merges the prior patient id into the new one; without MRG it is AR', async () => {
    const m = orm({ pid: 'OLD40' });
    await send(port, m.text);
    expect((await send(port, adt('A40', 'NEW40', '赵^六', 'OLD40'))).code).toBe('AA');
    expect(((await find(m.orderId)).body as Registration).lines[0]).toMatchObject({ patientId: 'NEW40', patientName: '赵六' });
    expect((await send(port, adt('A40', 'NEW41', '赵^六'))).code).toBe('AR');
    expect((await send(port, adt('A40', 'NEW42', '赵^六', 'NOBODY'))).code).toBe('AE');
  });
});

describe('the message log', () => {
  it('keeps every message with its raw text and ACK, searchable by control id, outcome, type and patient', async () => {
    const m = orm({ pid: 'LOG01' });
    await send(port, m.text);
    const q = async (filters: unknown[]) => {
      const r = await s.request('POST', `buckets/${hospital}/hl7/messages/query`, { token: admin, body: { filters } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as Page<Hl7MessageRow>;
    };
    const byId = await q([{ field: 'controlId', operator: 'equal', values: [m.controlId] }]);
    expect(byId.total).toBe(1);
    expect(byId.items[0]).toMatchObject({ outcome: 'applied', ackCode: 'AA', messageType: 'ORM^O01', facility: FACILITY, patientId: 'LOG01', orderId: m.orderId });
    expect(byId.items[0]!.raw).toContain('LOG01');
    expect(byId.items[0]!.ack).toContain(`MSA|AA|${m.controlId}`);
    expect((await q([{ field: 'outcome', operator: 'equal', values: ['error'] }])).items.every((r) => r.ackCode === 'AE')).toBe(true);
    expect((await q([{ field: 'patientId', operator: 'equal', values: ['LOG01'] }])).total).toBe(1);
    expect((await q([{ field: 'messageType', operator: 'in', values: ['ADT^A08'] }])).total).toBeGreaterThanOrEqual(1);
    const bad = await s.request('POST', `buckets/${hospital}/hl7/messages/query`, { token: admin, body: { filters: [{ field: 'raw', operator: 'equal', values: ['x'] }] } });
    expect(bad.status).toBe(400);
    expect((await s.request('POST', `buckets/${hospital}/hl7/messages/query`, { token: registrar, body: {} })).status).toBe(403);
  });
});

describe('a claim left pending by a process that stopped', () => {
  it('is taken over by the repeat after a minute, applied once and ACKed', async () => {
    const m = orm();
    await s.db.db.insert(t.hl7Messages).values({
      direction: 'in', created: new Date(s.clock.now().getTime() - 120_000), controlId: m.controlId, messageType: 'ORM^O01', facility: FACILITY,
      raw: m.text, outcome: 'pending',
    });
    const ack = await send(port, m.text);
    expect(ack).toMatchObject({ code: 'AA', controlId: m.controlId });
    expect((await find(m.orderId)).status).toBe(200);
    const rows = await s.db.db.select().from(t.hl7Messages).where(eq(t.hl7Messages.controlId, m.controlId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'applied', ackCode: 'AA' });
  });
});

describe('MLLP over TLS', () => {
  it('answers over TLS with HL7_TLS_CERT/KEY, like over TCP', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hl7-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1',
        '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
      const listener = await startHl7Listener(s.deps, { port: 0, host: '127.0.0.1', tls: { cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'), key: readFileSync(path.join(dir, 'key.pem'), 'utf8') } });
      try {
        const m = orm();
        const socket = tls.connect({ port: listener.port, host: '127.0.0.1', rejectUnauthorized: false });
        const reply = await new Promise<string>((resolve, reject) => {
          let got = Buffer.alloc(0);
          socket.on('data', (c: Buffer) => {
            got = Buffer.concat([got, c]);
            if (got.includes(Buffer.from([0x1c, 0x0d]))) resolve(got.subarray(1, got.length - 2).toString('utf8'));
          });
          socket.on('error', reject);
          socket.once('secureConnect', () => socket.write(framed(m.text)));
        });
        socket.destroy();
        expect(reply).toContain(`MSA|AA|${m.controlId}`);
        expect(listener.tls).toBe(true);
      } finally {
        await listener.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
