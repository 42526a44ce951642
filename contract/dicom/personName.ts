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
  return readGroup(name.ideographic || name.alphabetic || name.phonetic);
}

/** One group as read: components joined ('王^小東' → '王小東', 'Wang^XiaoDong' → 'Wang XiaoDong'). */
function readGroup(group: string): string {
  const parts = group.split('^').map((p) => p.trim()).filter(Boolean);
  return parts.join(CJK.test(group) ? '' : ' ');
}

/**
 * The name as stored for an exam: every group that has something, each as read, joined by '=' only when there are
 * several ('Wang^XiaoDong=王^小东' → 'Wang XiaoDong=王小东'). Both forms stay, so either is found by a search and
 * each language shows its own (personNameFor).
 */
export function storedPersonName(raw: string | null | undefined): string {
  const name = splitPersonName(raw);
  const groups = [name.alphabetic, name.ideographic, name.phonetic].map(readGroup);
  const [alphabetic, ideographic, phonetic] = groups;
  if (!ideographic && !phonetic) return alphabetic!;
  return groups.join('=').replace(/=+$/, '');
}

/**
 * The name a reader of `language` sees: Chinese and Tibetan readers the ideographic form (王小东), English readers
 * the alphabetic one (Wang XiaoDong); the other when one is missing. Works on stored names and raw DICOM ones.
 */
export function personNameFor(stored: string | null | undefined, language: 'chs' | 'en' | 'tib'): string {
  if (!stored) return '';
  if (!stored.includes('=') && !stored.includes('^')) return stored;
  const name = splitPersonName(stored);
  const order = language === 'en' ? [name.alphabetic, name.ideographic, name.phonetic] : [name.ideographic, name.alphabetic, name.phonetic];
  return readGroup(order.find((group) => group.trim() !== '') ?? '');
}

/**
 * What a name search also looks for in names stored the DICOM way (components split by '^'): 'Wang XiaoDong' is
 * 'Wang^XiaoDong' there, and a Chinese name typed whole (王小东) may be stored '王^小东'. The typed text comes first;
 * names stored as read (storedPersonName) are found by it alone.
 */
export function nameSearchForms(query: string): string[] {
  const text = query.trim();
  const forms = [text];
  if (/\s/.test(text)) forms.push(text.replace(/\s+/g, '^'));
  const chars = [...text];
  if (chars.length >= 2 && chars.length <= 6 && chars.every((c) => CJK.test(c))) {
    for (let i = 1; i < chars.length; i++) forms.push(`${chars.slice(0, i).join('')}^${chars.slice(i).join('')}`);
  }
  return forms;
}
