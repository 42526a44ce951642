import { timestamp } from 'drizzle-orm/pg-core';

/** The row's creation time, set by the database. */
export const created = () => timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
/** A moment in time: always with its time zone, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
