import { describe, expect, it } from 'vitest';
import {
  ackOf, buildAck, buildHeader, buildMessage, buildSegment, decodeMessage, encodeMessage, escapeValue, hl7Date, parseMessage, read, repetitions,
} from '../../server/hl7/message';
import { frame, MllpDecoder } from '../../server/hl7/mllp';

/** server/hl7/message.ts (the one HL7 parse/build wrapper, shared by orders in and results out) and the MLLP framing. */
describe('message.ts', () => {
  const text = 'MSH|^~\\&|HIS|H1|RIS|R|20261129||ORM^O01^ORM_O01|C1|P|2.5.1|||||CHN|GB 18030-2000\r'
    + 'PID|1||P1^^^H^MR~P2^^^X^PI||王\\F\\a\\S\\b\\T\\c\\R\\d\\E\\^小明||19800101|M\rOBX|1|TX|||line\\.br\\two\\X41\\';

  it('reads values unescaped, repetitions and subcomponents by 1-based index', () => {
    const m = parseMessage(text);
    expect(read(m, 'PID', 5, 1)).toBe('王|a^b&c~d\\');
    expect(read(m, 'PID', 5, 2)).toBe('小明');
    expect(read(m, 'PID', 3, 1, 1, 2)).toBe('P2');
    expect(read(m, 'PID', 3, 5, 1, 2)).toBe('PI');
    expect(repetitions(m.getSegment('PID'), 3)).toBe(2);
    expect(read(m, 'OBX', 5)).toBe('line\ntwoA');
    expect(read(m, 'MSH', 2)).toBe('^~\\&');
    expect(read(m, 'NTE', 3)).toBe('');
  });

  it('builds segments that escape every delimiter and read back the same', () => {
    const h = buildHeader({ sendingApplication: 'RIS', sendingFacility: 'R', receivingApplication: 'HIS', receivingFacility: 'H',
      messageType: ['ORU', 'R01', 'ORU_R01'], controlId: 'X9', time: new Date('2026-11-29T01:02:03Z') });
    const tricky = 'a|b^c&d~e\\f\ng';
    const m = buildMessage([h, buildSegment('OBX', ['1', 'TX', ['CODE', 'Text^x'], '', [[tricky], ['second']]])]);
    const back = parseMessage(m.toString());
    expect(m.toString()).toContain('MSH|^~\\&|RIS|R|HIS|H|20261129010203+0000||ORU^R01^ORU_R01|X9|P|2.5.1||||||UNICODE UTF-8');
    expect(read(back, 'OBX', 3, 2)).toBe('Text^x');
    expect(read(back, 'OBX', 5, 1, 1, 1)).toBe(tricky);
    expect(read(back, 'OBX', 5, 1, 1, 2)).toBe('second');
    expect(escapeValue('a|b')).toBe('a\\F\\b');
  });

  it('decodes and encodes by MSH-18 (GB18030, UTF-8), and refuses a character set it does not know', () => {
    const bytes = encodeMessage(text, 'GB 18030-2000');
    expect(bytes.includes(Buffer.from('王', 'utf8'))).toBe(false);
    expect(decodeMessage(bytes)).toEqual({ text, charset: 'GB 18030-2000' });
    const utf = text.replace('GB 18030-2000', 'UNICODE UTF-8');
    expect(decodeMessage(Buffer.from(utf, 'utf8'))!.text).toBe(utf);
    expect(decodeMessage(Buffer.from(text.replace('GB 18030-2000', 'EBCDIC-X'), 'utf8'))).toBeNull();
  });

  it('acknowledges with MSA and ERR (code, ERR-3, ERR-8) in the message\'s character set', () => {
    const ack = buildAck(parseMessage(text), 'AE', { hl7Code: '207', message: 'RegistryTooManyExams: at most 5 | exams', location: 'OBR^1^4' });
    expect(ackOf(parseMessage(ack.toString()))).toEqual({ code: 'AE', controlId: 'C1', errorCode: '207', errorMessage: 'RegistryTooManyExams: at most 5 | exams' });
    expect(read(ack, 'MSH', 18)).toBe('GB 18030-2000');
  });

  it('reads HL7 dates and refuses impossible ones', () => {
    expect(hl7Date('19800115')).toBe('1980-01-15');
    expect(hl7Date('198001151230+0800')).toBe('1980-01-15');
    expect(hl7Date('19800230')).toBeNull();
    expect(hl7Date('abc')).toBeNull();
  });

  it('refuses text that is not HL7', () => {
    expect(() => parseMessage('hello')).toThrow(/no MSH/);
  });
});

describe('MLLP framing', () => {
  const a = Buffer.from('MSH|A');
  const b = Buffer.from('MSH|B');
  const stream = Buffer.concat([Buffer.from('noise'), frame(a), frame(b)]);

  it('takes a frame split at every byte, and two frames in one chunk', () => {
    const d = new MllpDecoder(100);
    const out = [...stream].flatMap((byte) => d.push(Buffer.from([byte])));
    expect(out).toEqual([{ kind: 'message', bytes: a }, { kind: 'message', bytes: b }]);
    expect(new MllpDecoder(100).push(stream)).toEqual([{ kind: 'message', bytes: a }, { kind: 'message', bytes: b }]);
  });

  it('reports an oversize frame once, keeps none of it, and carries on with the next', () => {
    const d = new MllpDecoder(4);
    expect(d.push(Buffer.concat([frame(Buffer.from('0123456789')), frame(Buffer.from('ok'))])))
      .toEqual([{ kind: 'oversize', bytes: 10 }, { kind: 'message', bytes: Buffer.from('ok') }]);
  });

  it('keeps a lone FS inside a message (only FS CR ends it)', () => {
    const body = Buffer.from([0x41, 0x1c, 0x42]);
    expect(new MllpDecoder(100).push(frame(body))).toEqual([{ kind: 'message', bytes: body }]);
  });
});
