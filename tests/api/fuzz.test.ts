import fc from 'fast-check';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import * as accounts from '../../contract/accounts';
import * as calling from '../../contract/calling';
import * as common from '../../contract/common';
import * as consultations from '../../contract/consultations';
import { ERROR_STATUS, type ErrorCode } from '../../contract/errors';
import * as exams from '../../contract/exams';
import * as groups from '../../contract/groups';
import * as images from '../../contract/images';
import * as organizations from '../../contract/organizations';
import * as registry from '../../contract/registry';
import * as reports from '../../contract/reports';
import * as shares from '../../contract/shares';
import * as uploads from '../../contract/uploads';
import * as viewer from '../../contract/viewer';
import { buildApp } from '../../server/app';
import { createTokens } from '../../server/auth/tokens';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { startServer, type TestServer } from '../support/server';

/**
 * Property-based fuzzing of every route (listed by an onRoute hook) as a signed-in admin: random and malformed path
 * parameters, queries and bodies, the bodies shaped after the contract's zod schemas (their fields, types and bounds,
 * then broken). No answer may be a 5xx (except the catalogue's own 5xx codes, which say the server depends on
 * something outside: TtsUnavailable, TemplateDownloadFailed), and every error must be `{ code }` from the catalogue
 * with the catalogue's status. Bounded: a fixed seed (FUZZ_SEED to try another) and a few runs per route.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 8);
/** Routes that never answer in one go (event streams) or end the fuzzing admin's session. */
const SKIPPED = [/\/stream$/, /^\/api\/v1\/accounts\/logout$/, /\/tts$/];
/** 5xx codes the catalogue itself declares: an outside dependency missing, not a server fault. */
const DECLARED_5XX = new Set<ErrorCode>(['TtsUnavailable', 'TemplateDownloadFailed']);

let s: TestServer;
let app: FastifyInstance;
let token: string;
const routes: { method: string; url: string }[] = [];

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  app = await buildApp({
    db: s.db.db, dbKind: s.db.kind, clock: s.clock, storage: s.storage, tokens: createTokens('fuzz-secret', 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: 1024, dataDir: '/tmp', clientDir: '/nonexistent' },
  }, {
    onRoute: (r: RouteOptions) => {
      for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
    },
  });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/v1/accounts/login', payload: { username: 'admin', password: DEMO_PASSWORD } });
  token = (JSON.parse(login.body) as { accessToken: string }).accessToken;
});
afterAll(async () => {
  await app?.close();
  await s?.close();
});

// ---- values ---------------------------------------------------------------------------------------------------

const NASTY_TEXT = [
  '', ' ', '0', '-1', '0x1F', '1e3', ' 1', '1.0', '+1', '99999999999', '2147483648', 'NaN', 'Infinity', 'null', 'true',
  'a'.repeat(101), 'x'.repeat(5000), 'ab\u0000cd', '\u0000', '%00', '../../etc/passwd', '<script>alert(1)</script>',
  "'; drop table exams; --", '\ud800', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '0000-01-01', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z',
  '2026-02-30', '2026-13-01T00:00:00Z', '1899-12-31T23:59:59+08:00', '2026-01-01T00:00:00', '1900-01-01T00:00:00Z',
  '__proto__', 'constructor',
];
/** Fields the list whitelists filter on (the dates among them first: their edges were 500s). */
const FILTER_FIELDS = ['created', 'examTime', 'deletedTime', 'scheduledTime', 'arrivedTime', 'day', 'id', 'status', 'bucketId', 'patientName', 'modality', 'reportStatus', 'myTasks'];
/** Dates at and past the edges of what the product stores, in both the date-time and the day forms. */
const DATE_EDGES = ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '1899-12-31T23:59:59Z', '1900-01-01T00:00:00Z', '2200-12-31T23:59:59Z', '9999-12-31T23:59:59-12:00', '0000-01-01', '2026-02-29', '9999-12-31'];
const NASTY_NUMBERS = [0, -1, 1, 1.5, -0.5, 2_147_483_647, 2_147_483_648, -2_147_483_649, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 10_000_001];
const nastyText = fc.constantFrom(...NASTY_TEXT);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyText, fc.constantFrom(...NASTY_NUMBERS), fc.constant(null), fc.boolean(), fc.constant([]), fc.constant({}),
  fc.constant({ __proto__: { admin: true } }), fc.constant([[[[[]]]]]), fc.string({ maxLength: 20 }),
);

/** JSON Schema (as zod writes it) → values of that shape near its bounds, sometimes broken. */
type JsonSchema = {
  type?: string | string[]; format?: string; enum?: unknown[]; const?: unknown; minimum?: number; maximum?: number;
  exclusiveMinimum?: number; exclusiveMaximum?: number; minLength?: number; maxLength?: number; pattern?: string;
  items?: JsonSchema; minItems?: number; maxItems?: number; properties?: Record<string, JsonSchema>; required?: string[];
  anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[];
};

function fromSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const broken = depth > 3 ? nastyValue : fc.oneof({ weight: 1, arbitrary: nastyValue }, { weight: 4, arbitrary: shaped(schema, depth) });
  return broken;
}

/** A list filter (contract/common.ts filterSchema) on a field of the contract, with values near the edges. */
const anyFilter = fc.record({
  field: fc.constantFrom(...FILTER_FIELDS),
  operator: fc.constantFrom(...common.OPERATORS),
  values: fc.array(fc.oneof(fc.constantFrom(...DATE_EDGES), nastyText, fc.constantFrom(...NASTY_NUMBERS), fc.constant(null), fc.boolean()), { maxLength: 3 }),
});
/** A well-formed time filter whose value sits at or past the edge of the stored years (those were 500s). */
const timeFilter = fc.record({
  field: fc.constantFrom('created', 'examTime', 'deletedTime', 'scheduledTime'),
  operator: fc.constantFrom('gte', 'lte', 'gt', 'lt'),
  values: fc.constantFrom(...DATE_EDGES).map((v) => [v]),
});
const filterArbitrary = fc.oneof({ weight: 2, arbitrary: timeFilter }, { weight: 1, arbitrary: anyFilter });
/** A list query's body: the filters above with a page. */
const listBody = fc.record({
  filters: fc.array(filterArbitrary, { minLength: 1, maxLength: 2 }),
  skip: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, 10_000_001) }),
  limit: fc.oneof({ weight: 4, arbitrary: fc.constant(20) }, { weight: 1, arbitrary: fc.constantFrom(0, 101) }),
}, { requiredKeys: ['filters'] });

function shaped(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.properties?.field && schema.properties.operator && schema.properties.values) {
    return fc.oneof({ weight: 3, arbitrary: filterArbitrary }, { weight: 1, arbitrary: fc.record({ field: nastyText, operator: nastyText, values: fc.array(nastyValue, { maxLength: 3 }) }) });
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => fromSchema(a, depth + 1)));
  if (schema.allOf?.length) return fromSchema(schema.allOf[0]!, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'date-time') return fc.oneof(fc.date({ min: new Date(-62_167_219_200_000), max: new Date(253_402_300_799_000), noInvalidDate: true }).map((d) => d.toISOString()), nastyText);
      if (schema.format === 'date') return fc.oneof(fc.date({ min: new Date(-62_167_219_200_000), max: new Date(253_402_300_799_000), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), nastyText);
      const max = schema.maxLength ?? 64;
      // Field names of the contract too: a filter's `field` then names a real column (created, examTime, id …).
      return fc.oneof(fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(max, 40) }), fc.constantFrom(...FIELD_NAMES), fc.constant('x'.repeat(max)), fc.constant('x'.repeat(max + 1)), nastyText);
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1000;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1000;
      return fc.oneof(fc.integer({ min: Math.max(min, -1e6), max: Math.min(max, 1e6) }), fc.constantFrom(min, max, min - 1, max + 1, 1, 2, 3), fc.double({ noNaN: true }));
    }
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': return fc.array(schema.items ? fromSchema(schema.items, depth + 1) : nastyValue, { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      if (props.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), nastyValue, { maxKeys: 3 });
      return fc.record(Object.fromEntries(props.map(([k, v]) => [k, fromSchema(v, depth + 1)])), { requiredKeys: [] });
    }
    default: return nastyValue;
  }
}

/** The contract's input schemas by area; a route draws its bodies mostly from its area's. */
const AREAS: [RegExp, Record<string, unknown>][] = [
  [/accounts|avatars/, accounts], [/calling|queue|screen/, calling], [/consultations/, consultations], [/exams|exports/, exams],
  [/groups/, groups], [/images|attachments/, images], [/buckets|organizations|roles|members|dictionar|procedure/, organizations],
  [/registr|schedule/, registry], [/reports|report-templates|packages/, reports], [/shares|films|publications/, shares],
  [/uploads|upload-codes|upload-tokens|studies/, uploads], [/viewer/, viewer], [/./, common],
];

function bodySchemas(module: Record<string, unknown>): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const value of Object.values(module)) {
    if (!(value instanceof z.ZodType)) continue;
    try {
      out.push(z.toJSONSchema(value, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
    } catch { /* a schema JSON Schema cannot describe */ }
  }
  return out.filter((j) => j.type === 'object' && j.properties);
}
const SCHEMAS = AREAS.map(([re, module]) => [re, bodySchemas(module)] as const);
const ALL_SCHEMAS = SCHEMAS.flatMap(([, list]) => list);
/** Every field name of the contract's input schemas, plus the list whitelists' (the filters name these). */
const FIELD_NAMES = [...new Set([...ALL_SCHEMAS.flatMap((j) => Object.keys(j.properties ?? {})), 'created', 'examTime', 'id', 'status', 'deletedTime', 'day', 'scheduledTime', 'patientDob'])];
const QUERY_KEYS = FIELD_NAMES.slice(0, 200);

function bodyArbitrary(url: string): fc.Arbitrary<unknown> {
  const mine = SCHEMAS.filter(([re]) => re.test(url)).flatMap(([, list]) => list);
  const pool = mine.length ? mine : ALL_SCHEMAS;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pool).chain((j) => fromSchema(j)) },
    // List queries (page-query, count, newly, exports …) mostly get filters.
    { weight: /query|page|newly|count|export|list/.test(url) ? 8 : 1, arbitrary: listBody },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: nastyValue },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const paramValue = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }).map(String) },
  { weight: 2, arbitrary: nastyText },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constant('9'.repeat(120)) },
);
const queryArbitrary = fc.dictionary(fc.constantFrom(...QUERY_KEYS, 'token', 'skip', 'limit'), fc.oneof(nastyText, fc.integer().map(String)), { maxKeys: 3 });

// ---- the property -----------------------------------------------------------------------------------------------

const STATS: Record<number, number> = {};
interface Sent { method: string; url: string; body?: unknown; raw?: string }

async function send(r: Sent): Promise<string | null> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let payload: string | undefined;
  if (r.raw !== undefined) { payload = r.raw; headers['content-type'] = 'application/json'; }
  else if (r.body !== undefined && r.method !== 'GET' && r.method !== 'DELETE') { payload = JSON.stringify(r.body); headers['content-type'] = 'application/json'; }
  const res = await app.inject({ method: r.method as 'GET', url: r.url, headers, ...(payload !== undefined ? { payload } : {}) });
  STATS[res.statusCode] = (STATS[res.statusCode] ?? 0) + 1;
  if (res.statusCode < 400) return null;
  let code: unknown;
  try { code = (JSON.parse(res.body) as { code?: unknown }).code; } catch { return `${res.statusCode} with a body that is not JSON: ${res.body.slice(0, 200)}`; }
  if (typeof code !== 'string' || !(code in ERROR_STATUS)) return `${res.statusCode} with a code outside the catalogue: ${String(code)}`;
  const known = code as ErrorCode;
  if (ERROR_STATUS[known] !== res.statusCode) return `${res.statusCode} ${known}, whose catalogue status is ${ERROR_STATUS[known]}`;
  if (res.statusCode >= 500 && !DECLARED_5XX.has(known)) return `${res.statusCode} ${known}`;
  return null;
}

function fillPath(url: string, params: string[]): string {
  let i = 0;
  return url.replace(/:[A-Za-z]+|\*/g, () => encodePart(params[i++] ?? '1'));
}

/** A lone surrogate cannot be written in a URL at all (encodeURIComponent throws): send U+FFFD as a browser would. */
function encodePart(value: string): string {
  try { return encodeURIComponent(value); } catch { return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd')); }
}

it('answers every route with a catalogue code and never a 5xx, whatever the input', async () => {
  const started = Date.now();
  const fuzzed = routes.filter((r) => r.url.startsWith('/api/') && !SKIPPED.some((re) => re.test(r.url)));
  expect(fuzzed.length).toBeGreaterThan(50);
  const failures: string[] = [];
  for (const route of fuzzed) {
    const paramCount = (route.url.match(/:[A-Za-z]+|\*/g) ?? []).length;
    const input = fc.record({
      params: fc.array(paramValue, { minLength: paramCount, maxLength: paramCount }),
      query: queryArbitrary,
      body: bodyArbitrary(route.url),
    });
    const result = await fc.check(fc.asyncProperty(input, async ({ params, query, body }) => {
      const qs = new URLSearchParams(query).toString();
      const url = fillPath(route.url, params) + (qs ? `?${qs}` : '');
      const problem = await send({ method: route.method, url, body });
      if (problem) throw new Error(`${route.method} ${url} ${JSON.stringify(body)?.slice(0, 300)} → ${problem}`);
    }), { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true });
    if (result.failed) {
      const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      failures.push(`${route.method} ${route.url} (seed ${SEED}, path ${result.counterexamplePath}): ${error}`);
    }
  }
  console.info(`fuzzed ${fuzzed.length} routes × ${RUNS_PER_ROUTE} runs in ${Date.now() - started} ms (seed ${SEED}), statuses ${JSON.stringify(STATS)}`);
  expect(failures).toEqual([]);
  // The route count grows with every area (DICOMweb added 17): the limit is for a hung request, not a speed.
}, 300_000);
