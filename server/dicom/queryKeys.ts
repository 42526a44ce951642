import { sql, type SQL } from 'drizzle-orm';
import { exams } from '../db/schema';
import { nameBigramsCondition, normalisedLength } from '../http/bigrams';
import { ApiError } from '../http/errors';
import { attributeOf, type Attribute } from './dictionary';

/**
 * A Study Root query's keys and values (PS3.4 C.2.2.2): the attribute a key names, and each value form (UID list,
 * date range, wild card text, integer, person name) checked and turned into SQL; a key that is no attribute, or a
 * value of the wrong form, is refused (ParamsError). The query itself is ./query.ts.
 */

export const bad = (key: string, message: string) => new ApiError('ParamsError', message, { fields: [key] });

/** A query key (keyword or tag) as its attribute; anything else is refused. */
export function keyAttribute(key: string): Attribute {
  const attribute = attributeOf(key);
  if (!attribute) throw bad(key, `${key} is not a DICOM attribute`);
  return attribute;
}

// ------------------------------------------------------------------------------------------------ value forms
const UID = /^[0-9]+(\.[0-9]+)*$/;
const DA = /^\d{8}$/;

export function uidList(key: string, value: string): string[] {
  const uids = value.split(/[\\,]/).map((v) => v.trim()).filter(Boolean);
  if (uids.length === 0 || uids.length > 1000 || uids.some((u) => u.length > 64 || !UID.test(u))) throw bad(key, `${key} must be UIDs separated by \\ or ,`);
  return uids;
}

export function day(key: string, value: string): string {
  if (!DA.test(value)) throw bad(key, `${key} must be a date YYYYMMDD or a range`);
  const iso = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) throw bad(key, `${key}: ${value} is not a date`);
  return iso;
}

/** DA matching: a date, `from-`, `-to` or `from-to` (days as YYYY-MM-DD, inclusive). */
export function dateRange(key: string, value: string): { from: string | null; to: string | null } {
  const v = value.replace(/\./g, '');
  if (!v.includes('-')) { const d = day(key, v); return { from: d, to: d }; }
  const [a = '', b = '', ...rest] = v.split('-');
  if (rest.length > 0 || (!a && !b)) throw bad(key, `${key} must be a date YYYYMMDD or a range`);
  const range = { from: a ? day(key, a) : null, to: b ? day(key, b) : null };
  if (range.from && range.to && range.from > range.to) throw bad(key, `${key}: the range ends before it starts`);
  return range;
}

const hasWildcard = (v: string) => /[*?]/.test(v);
/** A value with `*` and `?` as a LIKE pattern (its own %, _ and \ escaped). */
export function likePattern(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%').replace(/\?/g, '_');
}

export function text(key: string, value: string, max = 256): string {
  if (value.length > max) throw bad(key, `${key} is longer than ${max} characters`);
  if (value.includes('\\')) throw bad(key, `${key}: list matching is not supported here`);
  return value;
}

export function stringMatch(key: string, column: SQL | typeof exams.patientId, value: string): SQL {
  const v = text(key, value);
  return hasWildcard(v) ? sql`${column} like ${likePattern(v)}` : sql`${column} = ${v}`;
}

export function integer(key: string, value: string): number {
  if (!/^-?\d{1,9}$/.test(value.trim())) throw bad(key, `${key} must be an integer`);
  return Number(value.trim());
}

/**
 * Person name matching: case-insensitive, `*` and `?` wild cards; `^` (between components) matches the space the
 * product stores there; the name may match the whole stored value or one of its `=` groups.
 */
export function personName(key: string, value: string): SQL {
  const v = text(key, value, 192).replace(/\^+$/, '').replace(/\^/g, ' ').trim();
  if (!v || v === '*') return sql`true`;
  const p = likePattern(v);
  const c = exams.patientName;
  // Case matters only for letters that have it: a Chinese name is compared with LIKE (ILIKE lower-cases every row).
  const op = v.toLowerCase() === v.toUpperCase() ? sql`like` : sql`ilike`;
  // The groups of a name stored with several ('Wang XiaoDong=王小東') are tried only on such names.
  const match = sql`(${c} ${op} ${p} or (strpos(${c}, '=') > 0 and (${c} ${op} ${`%=${p}`} or ${c} ${op} ${`${p}=%`})))`;
  // The longest piece between wild cards, when it has two characters, pre-filters by the names' bigram index (as the
  // worklist's name search does): '*小東*' needs no walk through every name.
  const piece = v.split(/[*?]/).sort((a, b) => normalisedLength(b) - normalisedLength(a))[0] ?? '';
  const bigrams = nameBigramsCondition(c, piece);
  return bigrams ? sql`(${bigrams} and ${match})` : match;
}
