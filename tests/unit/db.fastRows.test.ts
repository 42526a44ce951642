import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { alias, boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRowMapper, withFastRows } from '../../server/db/fastRows';
import { withDrizzleParsers } from '../../server/db/pgliteParsers';

/**
 * server/db/fastRows.ts: a prepared select with the compiled mapper answers exactly what drizzle's own mapper answers
 * (values, decoded types, nested objects, and drizzle's null for a left-joined table with no row), and the mapper is
 * really installed (a drizzle upgrade that renames its internals fails here instead of silently falling back).
 */
const people = pgTable('people', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  born: timestamp('born', { withTimezone: true, mode: 'date' }).notNull(),
  tags: jsonb('tags').$type<string[]>(),
  bossId: integer('boss_id'),
});
const notes = pgTable('notes', {
  id: integer('id').primaryKey(),
  personId: integer('person_id').notNull(),
  body: text('body'),
  done: boolean('done').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
});
const boss = alias(people, 'boss');

const client = new PGlite();
beforeAll(async () => {
  await client.waitReady;
  await client.exec(`
    create table people (id int primary key, name text not null, born timestamptz not null, tags jsonb, boss_id int);
    create table notes (id int primary key, person_id int not null, body text, done boolean not null, at timestamptz);
    insert into people values (1, 'Li Ming', '1980-01-02 03:04:05.678+08', '["a", "b"]', null),
      (2, '王芳', '1990-06-07 00:00:00+00', null, 1), (3, 'ཚེ་རིང', '2001-12-31 23:59:59.999+00', '[]', 2);
    insert into notes values (10, 1, 'first', true, '2026-11-26 10:00:00+00'), (11, 2, null, false, null);
  `);
}, 120_000);
afterAll(async () => { await client.close(); });

describe('withFastRows', { timeout: 60_000 }, () => {
  const db = drizzle(withDrizzleParsers(client));
  const selection = {
    person: people,
    bossName: boss.name,
    note: { id: notes.id, body: notes.body, done: notes.done, at: notes.at },
    mixed: { noteId: notes.id, bossBorn: boss.born, upper: sql<string>`upper(${people.name})` },
    count: sql<number>`(select count(*) from notes)`.mapWith(Number),
    label: sql<string>`'x' || ${people.id}`.as('label'),
  };
  const build = (name: string) => db.select(selection).from(people)
    .leftJoin(boss, eq(boss.id, people.bossId))
    .leftJoin(notes, eq(notes.personId, people.id))
    .orderBy(people.id)
    .prepare(name);

  it('answers what drizzle answers, nulls of left joins included', async () => {
    const plain = await build('plain').execute();
    const fast = await withFastRows(build('fast')).execute();
    expect(fast).toEqual(plain);
    expect(fast).toHaveLength(3);
    // The joined note: an object with decoded types; no note: null, as drizzle answers; the mixed object never null.
    expect(fast[0]!.note).toEqual({ id: 10, body: 'first', done: true, at: new Date('2026-11-26T10:00:00Z') });
    expect(fast[2]!.note).toBeNull();
    expect(fast[2]!.mixed).toEqual({ noteId: null, bossBorn: new Date('1990-06-07T00:00:00Z'), upper: 'ཚེ་རིང' });
    expect(fast[0]!.person.born).toBeInstanceOf(Date);
    expect(fast[0]!.person.tags).toEqual(['a', 'b']);
    expect(fast[0]!.count).toBe(2);
    expect(fast[1]!.label).toBe('x2');
  });

  it('answers the same with placeholders and for a plain table selection', async () => {
    const byName = (n: string) => db.select().from(people).where(eq(people.id, sql.placeholder('id'))).prepare(n);
    for (const id of [1, 2, 3, 4]) expect(await withFastRows(byName(`f${id}`)).execute({ id })).toEqual(await byName(`p${id}`).execute({ id }));
  });

  it('is installed on a drizzle prepared select, and leaves deeper selections to drizzle', () => {
    const prepared = withFastRows(build('installed')) as unknown as { customResultMapper?: unknown; fields?: unknown };
    expect(prepared.fields).toBeDefined();
    expect(typeof prepared.customResultMapper).toBe('function');
    expect(compileRowMapper([{ path: ['a', 'b', 'c'], field: people.id }], {})).toBeNull();
  });
});
