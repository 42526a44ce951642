import iconv from 'iconv-lite';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  charsetOf, decodeText, displayPersonName, groupInstances, personNameFor, storedPersonName, readDicomHeader, splitPersonName, studyInfoFromHeaders, type DicomHeader,
} from '../../contract/dicom';
import { CT_SERIES, SINGLE_SAMPLES, ascii, asNewInstance, concat, pixelDataOffset, replaceElement, sample, writeDicom } from '../support/dicom';

function header(bytes: Uint8Array): DicomHeader {
  const result = readDicomHeader(bytes);
  if (!result.ok) throw new Error(`${result.code} ${result.reason}: ${result.message}`);
  return result.header;
}

describe('reading the headers of the sample files', () => {
  it.each([
    ['CT_small.dcm', { modality: 'CT', rows: 128, columns: 128, frames: 1, transferSyntaxUid: '1.2.840.10008.1.2.1', patientName: 'CompressedSamples^CT1', encapsulated: false }],
    ['MR_small.dcm', { modality: 'MR', rows: 64, columns: 64, frames: 1, transferSyntaxUid: '1.2.840.10008.1.2.1', patientName: 'CompressedSamples^MR1', encapsulated: false }],
    ['JPGExtended.dcm', { modality: 'NM', rows: 1024, columns: 256, frames: 1, transferSyntaxUid: '1.2.840.10008.1.2.4.51', encapsulated: true }],
    ['SC_rgb_rle_2frame.dcm', { modality: 'OT', rows: 100, columns: 100, frames: 2, transferSyntaxUid: '1.2.840.10008.1.2.5', photometricInterpretation: 'RGB', encapsulated: true }],
    ['chrX1.dcm', { modality: 'OT', rows: 32, columns: 32, frames: 1, specificCharacterSet: 'ISO_IR 192', patientName: 'Wang^XiaoDong=王^小東=' }],
  ] as const)('%s', (name, expected) => {
    const h = header(sample(name));
    expect(h).toMatchObject(expected);
    expect(h.hasPixelData).toBe(true);
    for (const uid of [h.sopInstanceUid, h.seriesInstanceUid, h.studyInstanceUid]) expect(uid).toMatch(/^\d+(\.\d+)+$/);
  });

  it('reads every sample without a warning', () => {
    for (const name of [...SINGLE_SAMPLES, ...CT_SERIES]) {
      const result = readDicomHeader(sample(name));
      expect(result.ok && result.warnings, name).toEqual([]);
    }
  });

  it('groups the four files of ct-series into one study with one series in instance order', () => {
    const headers = [...CT_SERIES].reverse().map((f) => header(sample(f)));
    const { studies, duplicates } = groupInstances(headers);
    expect(duplicates).toEqual([]);
    expect(studies).toHaveLength(1);
    expect(studies[0]!.series).toHaveLength(1);
    expect(studies[0]!.series[0]!.instances.map((i) => i.instanceNumber)).toEqual([18, 180, 181, 182]);
    expect(studies[0]!.instanceCount).toBe(4);
  });

  it('keeps each sample file in its own study, and sets aside a file chosen twice', () => {
    const headers = [...SINGLE_SAMPLES, ...CT_SERIES, 'CT_small.dcm'].map((f) => header(sample(f)));
    const { studies, duplicates } = groupInstances(headers);
    expect(duplicates.map((d) => d.sopInstanceUid)).toEqual([header(sample('CT_small.dcm')).sopInstanceUid]);
    expect(studies.reduce((n, s) => n + s.instanceCount, 0)).toBe(SINGLE_SAMPLES.length + CT_SERIES.length);
  });

  it('pre-fills the exam from a study', () => {
    const info = studyInfoFromHeaders(CT_SERIES.map((f) => header(sample(f))));
    expect(info).toMatchObject({
      patientName: 'Doe Archibald', patientId: '77654033', modality: 'CT', bodyPart: 'HEAD', visitAge: '42Y',
      studyDescription: 'CT, HEAD/BRAIN WO CONTRAST', accessionNumber: '2',
    });
    expect(info.examTime).toMatch(/^1995-09-03T17:30:32[+-]\d{2}:\d{2}$/);
    // Both groups are kept, each as read, so either is found and each language shows its own.
    expect(studyInfoFromHeaders([header(sample('chrX1.dcm'))]).patientName).toBe('Wang XiaoDong=王小東');
  });
});

describe('person names and character sets', () => {
  it('splits and shows a name with alphabetic and ideographic groups', () => {
    expect(splitPersonName('Wang^XiaoDong=王^小東=')).toEqual({ alphabetic: 'Wang^XiaoDong', ideographic: '王^小東', phonetic: '' });
    expect(displayPersonName('Wang^XiaoDong=王^小東=')).toBe('王小東');
    expect(displayPersonName('Doe^John^^Dr')).toBe('Doe John Dr');
    expect(displayPersonName(null)).toBe('');
  });

  it('shows the ideographic form in Chinese and Tibetan and the alphabetic one in English, from a stored or a raw name', () => {
    expect(storedPersonName('Wang^XiaoDong=王^小东')).toBe('Wang XiaoDong=王小东');
    expect(storedPersonName('Wang^XiaoDong=王^小東=')).toBe('Wang XiaoDong=王小東');
    expect(storedPersonName('Doe^John')).toBe('Doe John');
    expect(storedPersonName('=王^小东')).toBe('=王小东');
    for (const name of ['Wang XiaoDong=王小东', 'Wang^XiaoDong=王^小东']) {
      expect(personNameFor(name, 'chs')).toBe('王小东');
      expect(personNameFor(name, 'tib')).toBe('王小东');
      expect(personNameFor(name, 'en')).toBe('Wang XiaoDong');
    }
    expect(personNameFor('=王小东', 'en')).toBe('王小东');
    expect(personNameFor('张伟', 'en')).toBe('张伟');
    expect(personNameFor('Doe^John', 'chs')).toBe('Doe John');
    expect(personNameFor(null, 'chs')).toBe('');
  });

  it('reads a GB18030 name written into a sample', () => {
    const name = '张^伟=张伟=';
    let bytes = replaceElement(sample('chrX1.dcm'), 'x00100010', new Uint8Array(iconv.encode(name, 'gb18030')));
    bytes = replaceElement(bytes, 'x00080005', ascii('GB18030'));
    const h = header(bytes);
    expect(h.specificCharacterSet).toBe('GB18030');
    expect(h.patientName).toBe(name);
    expect(displayPersonName(h.patientName)).toBe('张伟');
  });

  it('reads a GB18030 four-byte character', () => {
    const text = '𠀀^䶵';
    expect(decodeText(new Uint8Array(iconv.encode(text, 'gb18030')), charsetOf('GB18030'))).toBe(text);
  });

  it('reads UTF-8, Latin-1, Cyrillic and GBK, and ISO 2022 Japanese with escapes', () => {
    expect(decodeText(new Uint8Array(iconv.encode('Müller^Jürgen ', 'latin1')), charsetOf('ISO_IR 100'))).toBe('Müller^Jürgen');
    expect(decodeText(new Uint8Array(iconv.encode('Иванов^Иван', 'iso-8859-5')), charsetOf('ISO_IR 144'))).toBe('Иванов^Иван');
    expect(decodeText(new Uint8Array(iconv.encode('王^小明', 'gbk')), charsetOf('GBK'))).toBe('王^小明');
    // PS3.5 H.3.1: Yamada^Tarou=山田^太郎=やまだ^たろう
    const jis = Buffer.concat([
      Buffer.from('Yamada^Tarou='), Buffer.from([0x1b, 0x24, 0x42, 0x3b, 0x33, 0x45, 0x44, 0x1b, 0x28, 0x42]), Buffer.from('^'),
      Buffer.from([0x1b, 0x24, 0x42, 0x42, 0x40, 0x4f, 0x3a, 0x1b, 0x28, 0x42]), Buffer.from('='),
      Buffer.from([0x1b, 0x24, 0x42, 0x24, 0x64, 0x24, 0x5e, 0x24, 0x40, 0x1b, 0x28, 0x42]), Buffer.from('^'),
      Buffer.from([0x1b, 0x24, 0x42, 0x24, 0x3f, 0x24, 0x6d, 0x24, 0x26, 0x1b, 0x28, 0x42]),
    ]);
    expect(decodeText(new Uint8Array(jis), charsetOf('\\ISO 2022 IR 87'))).toBe('Yamada^Tarou=山田^太郎=やまだ^たろう');
  });

  it('reads an unknown character set as Latin-1 and says so', () => {
    const bytes = replaceElement(sample('CT_small.dcm'), 'x00080005', ascii('ISO_IR 999'));
    const result = readDicomHeader(bytes);
    expect(result.ok && result.warnings).toEqual(['Unknown character set ISO_IR 999: read as Latin-1']);
  });
});

describe('older encodings', () => {
  const elements = [
    { tag: 0x00080005, vr: 'CS', value: 'ISO_IR 192' },
    { tag: 0x00080016, vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
    { tag: 0x00080018, vr: 'UI', value: '1.2.3.4.5.6.7' },
    { tag: 0x00080060, vr: 'CS', value: 'DX' },
    { tag: 0x00100010, vr: 'PN', value: new TextEncoder().encode('Li^Lei=李^雷') },
    { tag: 0x0020000d, vr: 'UI', value: '1.2.3.4' },
    { tag: 0x0020000e, vr: 'UI', value: '1.2.3.4.5' },
    { tag: 0x00200013, vr: 'IS', value: '7' },
    { tag: 0x00280010, vr: 'US', value: 2 },
    { tag: 0x00280011, vr: 'US', value: 2 },
    { tag: 0x7fe00010, vr: 'OW', value: new Uint8Array(8) },
  ];

  it.each([
    ['implicit VR little endian', '1.2.840.10008.1.2'],
    ['explicit VR big endian', '1.2.840.10008.1.2.2'],
  ] as const)('reads %s', (_name, transferSyntax) => {
    const h = header(writeDicom({ transferSyntax, elements }));
    expect(h).toMatchObject({ transferSyntaxUid: transferSyntax, rows: 2, columns: 2, instanceNumber: 7, modality: 'DX', patientName: 'Li^Lei=李^雷' });
  });

  it('reads a bare data set without preamble or meta header', () => {
    const h = header(writeDicom({ transferSyntax: '1.2.840.10008.1.2', elements, part10: false }));
    expect(h).toMatchObject({ bareDataSet: true, sopInstanceUid: '1.2.3.4.5.6.7', rows: 2 });
  });

  it('reads a deflated data set', () => {
    const original = sample('CT_small.dcm');
    const plain = readDicomHeader(original);
    if (!plain.ok) throw new Error('CT_small');
    // Split at the end of the meta header (its group length says where), deflate the rest, name the deflated syntax.
    const metaEnd = 132 + 12 + new DataView(original.buffer, original.byteOffset).getUint32(140, true);
    const deflated = concat(original.subarray(0, metaEnd), deflateRawSync(original.subarray(metaEnd)));
    const h = header(replaceElement(deflated, 'x00020010', ascii('1.2.840.10008.1.2.1.99'), 0));
    expect(h).toMatchObject({ ...plain.header, transferSyntaxUid: '1.2.840.10008.1.2.1.99' });
  });
});

describe('refusing broken files with a reason', () => {
  const refusal = (bytes: Uint8Array, opts?: Parameters<typeof readDicomHeader>[1]) => {
    const r = readDicomHeader(bytes, opts);
    return r.ok ? 'accepted' : `${r.code}/${r.reason}`;
  };

  it('refuses an empty file', () => expect(refusal(new Uint8Array())).toBe('NotDicom/empty'));
  it('refuses text, a PNG and random bytes', () => {
    expect(refusal(ascii('patient list\nname,id\n'.repeat(20)))).toBe('NotDicom/notDicom');
    expect(refusal(concat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), new Uint8Array(300)))).toBe('NotDicom/notDicom');
    expect(refusal(new Uint8Array(4096).map((_, i) => (i * 7919) % 251))).toBe('NotDicom/notDicom');
  });
  it.each([...SINGLE_SAMPLES, ...CT_SERIES])('refuses %s cut short, at any length', (name) => {
    const bytes = sample(name);
    for (const keep of [bytes.length - 1, bytes.length - 8, Math.floor(bytes.length * 0.75), Math.floor(bytes.length / 2), 400]) {
      expect(refusal(bytes.subarray(0, keep)), `${name} cut to ${keep}`).toMatch(/^InvalidDicom\/(truncated|unreadable)$/);
    }
    expect(refusal(bytes.subarray(0, 100)), `${name} cut to 100`).toBe('NotDicom/notDicom');
  });
  it('refuses a file without a SOP Instance UID', () => {
    const bytes = replaceElement(sample('MR_small.dcm'), 'x00080018', new Uint8Array(0));
    expect(refusal(bytes)).toBe('accepted'); // the meta header's Media Storage SOP Instance UID stands in
    expect(refusal(replaceElement(bytes, 'x00020003', new Uint8Array(0)))).toBe('InvalidDicom/missingUid');
  });

  it('reads a large file from its head and checks the rest by the pixel data length', () => {
    for (const name of ['CT_small.dcm', 'JPGExtended.dcm']) {
      const bytes = sample(name);
      const h = header(bytes);
      // The head ends inside the pixel data, as the head of a file too large to keep in memory does.
      const pixelStart = pixelDataOffset(bytes) + 64;
      const opts = { totalSize: bytes.length, tail: bytes.subarray(bytes.length - 8) };
      expect(readDicomHeader(bytes.subarray(0, pixelStart), opts)).toMatchObject({ ok: true, header: { sopInstanceUid: h.sopInstanceUid } });
      const cut = bytes.subarray(0, bytes.length - 300);
      expect(refusal(cut.subarray(0, pixelStart), { totalSize: cut.length, tail: cut.subarray(cut.length - 8) })).toBe('InvalidDicom/truncated');
    }
  });

  it('gives a new instance of the same image its own SOP Instance UID', () => {
    const original = header(sample(CT_SERIES[0]!));
    const copy = header(asNewInstance(sample(CT_SERIES[0]!), 42));
    expect(copy.sopInstanceUid).not.toBe(original.sopInstanceUid);
    expect(copy.sopInstanceUid).toHaveLength(original.sopInstanceUid.length);
    expect({ ...copy, sopInstanceUid: '' }).toEqual({ ...original, sopInstanceUid: '' });
  });
});
