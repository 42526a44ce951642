import dcmjs from 'dcmjs';

/** A data element of the DICOM dictionary: keyword, tag as 8 hex digits (upper case) and value representation. */
export interface Attribute {
  keyword: string;
  tag: string;
  vr: string;
}

const { nameMap, dictionary } = dcmjs.data.DicomMetaDictionary;

const fromEntry = (e: { tag: string; vr: string; name: string }): Attribute =>
  ({ keyword: e.name, tag: e.tag.replace(/[(),]/g, '').toUpperCase(), vr: e.vr.split('|')[0]! || 'UN' });

const known = new Map<string, Attribute | null>();

/** The attribute of a keyword (`PatientName`) or a tag (`00100010`, either case); null when the dictionary has neither. */
export function attributeOf(key: string): Attribute | null {
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const found = lookUp(key);
  // Keys come from requests: only the dictionary's own answers are kept (a bounded set), not every string asked.
  if (found) known.set(key, found);
  return found;
}

function lookUp(key: string): Attribute | null {
  if (/^[0-9A-Fa-f]{8}$/.test(key)) {
    const tag = key.toUpperCase();
    const entry = dictionary[`(${tag.slice(0, 4)},${tag.slice(4)})`];
    return entry ? fromEntry(entry) : null;
  }
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) return null;
  const entry = Object.hasOwn(nameMap, key) ? nameMap[key] : undefined;
  return entry ? fromEntry(entry) : null;
}
