/**
 * Days and wall-clock times in the organisation's time zone (areas §5: "not before today" is the organisation's
 * today). The registrar's browser may sit in another zone; every day and time the desk shows or sends is the
 * organisation's.
 */
const parts = (date: Date, timeZone: string) => {
  const out: Record<string, number> = {};
  for (const p of new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(date)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return out as { year: number; month: number; day: number; hour: number; minute: number; second: number };
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** How far the zone's wall clock is ahead of UTC at `date`, in ms. */
function offsetAt(date: Date, timeZone: string): number {
  const p = parts(date, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(date.getTime() / 1000) * 1000;
}

/** The instant the zone's wall clock reads `day` `time` (HH:mm). */
export function instantOf(day: string, time: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // Twice: the first guess may sit on the other side of a daylight-saving change.
  const first = wall - offsetAt(new Date(wall), timeZone);
  return new Date(wall - offsetAt(new Date(first), timeZone));
}

/** The zone's calendar day of `date`, YYYY-MM-DD. */
export function dayIn(date: Date, timeZone: string): string {
  const p = parts(date, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The zone's wall-clock time of `date`, HH:mm. */
export function timeIn(date: Date, timeZone: string): string {
  const p = parts(date, timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + n));
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
}

/** The list's day filter: from the day's start to the next day's start, in the zone. */
export function dayRange(day: string, timeZone: string): { from: string; to: string } {
  return { from: instantOf(day, '00:00', timeZone).toISOString(), to: instantOf(addDays(day, 1), '00:00', timeZone).toISOString() };
}
