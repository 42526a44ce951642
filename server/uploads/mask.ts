/**
 * What an uploader without an account in the organisation (an upload code, an organisation token) may see of a
 * patient: enough to recognise the exam, never the full name or the id.
 */

/** 王小明 → 王*明, Wang Xiao → W*** X***. */
export function maskName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length <= 1) return name;
  if (/[\u3400-\u9fff]/u.test(name)) return chars.length === 2 ? `${chars[0]}*` : `${chars[0]}${'*'.repeat(chars.length - 2)}${chars.at(-1)}`;
  return name.split(/\s+/).map((w) => (w ? `${w[0]}${'*'.repeat(Math.max(0, w.length - 1))}` : w)).join(' ');
}

/** A patient id is shown as stars only: P00012345 → *********. */
export function maskId(id: string): string {
  return '*'.repeat([...id].length);
}
