/** DICOM Person Name (PN): up to three groups separated by '=' (alphabetic, ideographic, phonetic), components by '^'. */
export interface PersonName {
  alphabetic: string;
  ideographic: string;
  phonetic: string;
}

export function splitPersonName(raw: string | null | undefined): PersonName {
  const [alphabetic = '', ideographic = '', phonetic = ''] = (raw ?? '').split('=');
  return { alphabetic: alphabetic.trim(), ideographic: ideographic.trim(), phonetic: phonetic.trim() };
}

const CJK = /[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

/**
 * The name as a person reads it: the ideographic group when there is one (our users read Chinese),
 * else the alphabetic. CJK names join family and given name without a space ('王^小東' → '王小東');
 * others with one ('Wang^XiaoDong' → 'Wang XiaoDong'). Empty components are dropped.
 */
export function displayPersonName(raw: string | null | undefined): string {
  const name = splitPersonName(raw);
  const group = name.ideographic || name.alphabetic || name.phonetic;
  const parts = group.split('^').map((p) => p.trim()).filter(Boolean);
  return parts.join(CJK.test(group) ? '' : ' ');
}
