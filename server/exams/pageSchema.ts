import type { ExamListItem } from '../../contract/exams';

/**
 * The response schema of the exam list's page (POST exams/page-query, exams/newly): Fastify writes the answer with
 * fast-json-stringify from it instead of JSON.stringify over each row's ~55 fields.
 *
 * A response schema drops every field it does not name, so it is written against the contract's item type:
 * `satisfies Record<keyof ExamListItem, …>` makes a field added to ExamListItem and forgotten here (or named here and
 * not there) a type error. The properties are in the order toListItem writes them, and the types are the values'
 * own, so the bytes are those JSON.stringify wrote (tests/unit/exams.pageSchema.test.ts compares them). Values
 * stored as JSON (formImgUrls, extensions) and the real-typed weight and height are written by JSON.stringify as
 * before (no type: fast-json-stringify's number would refuse a NaN that JSON.stringify writes as null).
 */
const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const num = { type: 'number' } as const;
const numOrNull = { type: ['number', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const boolOrNull = { type: ['boolean', 'null'] } as const;
const asJson = {} as const;

const itemProperties = {
  id: num,
  bucketId: num,
  bucketName: str,
  targetBucketId: numOrNull,
  orderId: strOrNull,
  patientKeyId: strOrNull,
  patientName: str,
  patientId: str,
  patientGender: str,
  patientDob: strOrNull,
  visitAge: strOrNull,
  weight: asJson,
  height: asJson,
  patientClass: strOrNull,
  patientSource: strOrNull,
  inpatientId: strOrNull,
  bedNum: strOrNull,
  outpatientId: strOrNull,
  physicalExamId: strOrNull,
  serviceRequestId: strOrNull,
  accessionNumber: strOrNull,
  modality: str,
  bodyPart: strOrNull,
  bodyPartCount: num,
  studyDescription: strOrNull,
  clinicImpression: strOrNull,
  applyDept: strOrNull,
  urgentFlag: bool,
  teleMedFlag: bool,
  isRemoteReportRequested: bool,
  reportSource: str,
  storeUid: strOrNull,
  openPath: strOrNull,
  hasImage: bool,
  examStatus: strOrNull,
  showVideo: bool,
  formImgUrls: asJson,
  extensions: asJson,
  AIStatus: strOrNull,
  assigneeId: numOrNull,
  assigneeName: strOrNull,
  reportType: str,
  reportId: numOrNull,
  reportStatus: str,
  reportCreatorId: numOrNull,
  reportCreatorName: strOrNull,
  reportPositive: boolOrNull,
  canWrite: bool,
  examTime: str,
  uploadTime: strOrNull,
  created: str,
  deletedTime: strOrNull,
  version: num,
} as const satisfies Record<keyof ExamListItem, object>;

export const examListItemSchema = { type: 'object', properties: itemProperties } as const;

/** ExamPage: the rows, then the total and whether it is estimated (the order the route writes them in). */
export const examPageSchema = {
  type: 'object',
  properties: { items: { type: 'array', items: examListItemSchema }, total: num, totalIsEstimate: bool },
} as const;
