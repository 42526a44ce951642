import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Action } from '../../contract/actions';
import { hashPassword } from '../auth/password';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { Clock } from '../deps';
import { BODY_PARTS, DEPARTMENTS } from './clinical';
import { insertConsultations } from './consultations';
import { insertExams } from './exams';
import { seedImages } from './images';
import type { Storage } from '../storage/types';
import { rng } from './random';
import { seedAdmin } from './admin';
import { seedCalling } from './calling';
import { seedKb } from './kb';
import { seedRegistry } from './registry';
import { seedGroupTemplates, seedTemplates } from './templates';
import { seedPrintTemplateImages } from './printImages';
import { seedGlobalConfigs } from './globalConfigs';
import { seedSampleGraphs } from './sampleGraphs';
import { seedLearning } from './learning';
import { seedPayments } from './payments';
import { seedStatistics } from './statistics';

export const DEMO_PASSWORD = 'Demo1234';

const READING: Action[] = ['exam_get', 'report_upsert', 'report_advice', 'report_print', 'report_trace'];
const APPROVING: Action[] = [...READING, 'report_approval', 'report_recall', 'report_assign'];
/** The applicant side of a consultation (docs/decisions.md "Consultations"): asks, adds cases and exams, discusses. */
const ASKING: Action[] = [
  'consultation_create', 'consultation_update', 'consultation_clinicCase_create', 'consultation_clinicCase_delete',
  'consultation_Exam_create', 'consultation_Exam_delete', 'consultation_submitSuggestion',
];
/** The target side: the expert schedules and concludes (consultation_update), discusses and adds cases. */
const ANSWERING: Action[] = ['consultation_update', 'consultation_submitSuggestion', 'consultation_clinicCase_create', 'consultation_clinicCase_delete'];
/** Asking an expert centre for a report and paying for it (areas §6 order and payment); refunds are the chief's. */
const APPLYING: Action[] = ['apply_expert_report', 'apply_remote_report'];
const RADIOLOGIST: Action[] = [...READING, ...ASKING, ...APPLYING];
const CHIEF: Action[] = [...APPROVING, ...ASKING, ...APPLYING, 'payment_refund', 'upload_apply_forms', 'consultation_delete', 'statistics_report'];
const REGISTRAR: Action[] = ['registry_create', 'registry_update', 'registry_delete', 'calling_manage_queue', 'calling_call'];
const TECH: Action[] = ['exam_get', 'exam_upload', 'attachment_create', 'attachment_delete', 'attachment_presigned_url', 'attachment_upload'];
const EXPERT: Action[] = [...APPROVING, 'export_exams', 'study_package', ...ANSWERING, 'payment_refund'];

export const DEMO_ACCOUNTS = [
  { username: 'admin', name: '系统管理员', title: null },
  { username: 'rad1', name: '李明', title: '主治医师' },
  { username: 'rad2', name: '王芳', title: '住院医师' },
  { username: 'chief', name: '张建国', title: '主任医师' },
  { username: 'registrar', name: '赵丽', title: '登记员' },
  { username: 'tech', name: '陈强', title: '技师' },
  // A bound mobile: the forgotten-password page's code goes to it (the local SMS sender writes it to the server log).
  { username: 'expert', name: '刘志远', title: '教授', mobile: '13800138007' },
  // The hospital's own administrator: organisation admin there, a plain member of the group (areas §6).
  { username: 'orgadmin', name: '何静', title: '科室管理员' },
] as const;
export type DemoUsername = (typeof DEMO_ACCOUNTS)[number]['username'];

export interface DemoIds {
  groupId: number;
  hospitalId: number;
  expertCentreId: number;
  accounts: Record<DemoUsername, number>;
}

export interface DemoOptions {
  scryptCost: number;
  clock: Clock;
  exams?: number;
  /** Where the demo's images go; without it no exam gets images (API tests that do not need them). */
  storage?: Storage;
  /** Exams of the hospital with images (default 300, or a sixth of the exams when fewer); the expert centre gets a tenth. */
  images?: number;
}

export async function seedDemoIfEmpty(db: Db, opts: DemoOptions): Promise<DemoIds | null> {
  const [{ n }] = await db.select({ n: count() }).from(t.accounts);
  if (n > 0) return null;
  return seedDemo(db, opts);
}

/**
 * Demo data (issue "Foundation"): one domain, one group with every flag on (both notification sounds among them), a
 * hospital and an expert centre, their exams, the hospital's consultations with the centre, and its registry desk.
 */
export async function seedDemo(db: Db, opts: DemoOptions): Promise<DemoIds> {
  const now = opts.clock.now();
  const r = rng(20261122);
  const hash = await hashPassword(DEMO_PASSWORD, opts.scryptCost);

  const ids = await db.transaction(async (tx) => {
    const [group] = await tx.insert(t.groups).values({
      name: 'demo', displayName: '示范医疗集团', domainName: 'demo.local', openTelemed: true, enableRegistry: true,
      enableStat: true, enableConsultation: true, autoNotifyAudio: '/sounds/notify.wav', autoConsulNotifyAudio: '/sounds/notify.wav',
      isGroupKb: true, featEncryptionViewerOn: true, enableCalling: true, openPrivateCloud: '1', allowOverview: true,
      enableCredit: true, allowAccountMgmt: true,
    }).returning();
    const [hospital, centre] = await tx.insert(t.buckets).values([
      { groupId: group!.id, name: '市第一人民医院放射科', code: 'CITY1-RAD', publicUploadToken: randomToken(r) },
      // One expert and no second approver: the centre's submitted report is its issued report (docs/report-lifecycle.md).
      { groupId: group!.id, name: '远程影像专家中心', code: 'EXPERT-CENTRE', publicUploadToken: randomToken(r), reportFinalOnSubmit: true },
    ]).returning();
    await tx.update(t.groups).set({ defaultExpertBucketId: centre!.id, defaultConsultationBucketId: centre!.id }).where(eq(t.groups.id, group!.id));
    await tx.insert(t.domains).values({
      displayName: '云影像诊断报告平台', company: '示范医疗集团', website: 'https://demo.local', allowRegistration: true,
      defaultExpertBucketId: centre!.id, displayDomainName: 'demo.local', footer: '© 示范医疗集团',
    });

    const accountRows = await tx.insert(t.accounts).values(DEMO_ACCOUNTS.map((a) => ({
      username: a.username, name: a.name, fullName: a.name, techTitle: a.title, mobile: 'mobile' in a ? a.mobile : null, passwordHash: hash,
      canCreateGroup: a.username === 'admin',
    }))).returning();
    const acc = Object.fromEntries(accountRows.map((a) => [a.username, a.id])) as Record<DemoUsername, number>;

    await tx.insert(t.groupMembers).values(accountRows.map((a) => ({ groupId: group!.id, accountId: a.id, accessLevel: a.username === 'admin' ? 1 : 0 })));
    await tx.insert(t.bucketMembers).values([
      { bucketId: hospital!.id, accountId: acc.admin, accessLevel: 'admin' },
      { bucketId: centre!.id, accountId: acc.admin, accessLevel: 'admin' },
      { bucketId: hospital!.id, accountId: acc.orgadmin, accessLevel: 'admin' },
      ...(['rad1', 'rad2', 'chief', 'registrar', 'tech'] as const).map((u) => ({ bucketId: hospital!.id, accountId: acc[u], accessLevel: 'member' })),
      { bucketId: centre!.id, accountId: acc.expert, accessLevel: 'member' },
    ]);
    const roleDefs: [number, string, Action[], DemoUsername[]][] = [
      [hospital!.id, '放射科医师', RADIOLOGIST, ['rad1', 'rad2']],
      [hospital!.id, '科主任', CHIEF, ['chief']],
      [hospital!.id, '登记员', REGISTRAR, ['registrar']],
      [hospital!.id, '技师', TECH, ['tech']],
      [centre!.id, '远程诊断专家', EXPERT, ['expert']],
    ];
    for (const [bucketId, name, actions, users] of roleDefs) {
      const [role] = await tx.insert(t.roles).values({ bucketId, name, actions }).returning();
      await tx.insert(t.roleUsers).values(users.map((u) => ({ roleId: role!.id, accountId: acc[u] })));
    }

    for (const bucket of [hospital!, centre!]) {
      const deps = await tx.insert(t.departments).values(DEPARTMENTS.map((name) => ({ bucketId: bucket.id, name }))).returning();
      await tx.insert(t.bodyparts).values([...new Set(Object.values(BODY_PARTS).flat())].map((name) => ({ bucketId: bucket.id, name })));
      await tx.insert(t.doctors).values(deps.slice(0, 6).flatMap((d, i) => [
        { bucketId: bucket.id, departmentId: d.id, name: ['周医生', '吴医生', '郑医生', '孙医生', '钱医生', '冯医生'][i]!, physicianType: 1 },
      ]));
      await tx.insert(t.procedures).values(Object.entries(BODY_PARTS).flatMap(([modality, parts]) =>
        parts.map((part, i) => ({ bucketId: bucket.id, code: `${modality}${String(i + 1).padStart(3, '0')}`, name: `${modality} ${part}`,
          enDescription: `${modality} ${part}`, modality, price: modality === 'CT' ? 280 : modality === 'MR' ? 560 : modality === 'US' ? 120 : 80 })))
        .map((p, sortOrder) => ({ ...p, sortOrder })));
      await seedTemplates(tx as unknown as Db, bucket.id);
    }
    await seedGroupTemplates(tx as unknown as Db, group!.id);
    return { groupId: group!.id, hospitalId: hospital!.id, expertCentreId: centre!.id, accounts: acc };
  });

  const hospitalExams = await insertExams(db, r, {
    now, days: 60, count: opts.exams ?? 2000, bucketId: ids.hospitalId,
    reporters: [ids.accounts.rad1, ids.accounts.rad2], approver: ids.accounts.chief,
  });
  const centreExams = await insertExams(db, r, {
    now, days: 60, count: Math.ceil((opts.exams ?? 2000) / 10), bucketId: ids.expertCentreId,
    reporters: [ids.accounts.expert], approver: ids.accounts.expert, remote: true,
  });
  // The hospital asks the expert centre; a generator of its own, so the consultations do not change with the exam count.
  await insertConsultations(db, rng(20261123), {
    now, days: 60, count: 25, pending: 5, appliedBucketId: ids.hospitalId, targetBucketId: ids.expertCentreId,
    joinedBucketIds: [ids.expertCentreId], applicants: [ids.accounts.rad1, ids.accounts.rad2, ids.accounts.chief],
    expert: ids.accounts.expert, examIds: hospitalExams,
  });
  // The registrar's desk: today's registrations in every state; a generator of its own as well.
  const registry = await seedRegistry(db, rng(20261124), {
    now, groupId: ids.groupId, bucketId: ids.hospitalId, registrarId: ids.accounts.registrar,
    reporters: [ids.accounts.rad1, ids.accounts.rad2], approver: ids.accounts.chief,
  });
  // The call queue: the arrived lines in the queues of their modality.
  await seedCalling(db, { now, bucketId: ids.hospitalId, operatorId: ids.accounts.registrar });
  await seedAdmin(db, { groupId: ids.groupId, hospitalId: ids.hospitalId, chief: ids.accounts.chief });
  await seedKb(db, { bucketId: ids.hospitalId, authorId: ids.accounts.chief });
  await seedGlobalConfigs(db, now);
  await seedLearning(db);
  if (opts.storage) {
    for (const bucketId of [ids.hospitalId, ids.expertCentreId]) await seedPrintTemplateImages(db, opts.storage, bucketId);
    await seedSampleGraphs(db, opts.storage, { bucketId: ids.hospitalId, createdBy: ids.accounts.admin, now });
    const wanted = opts.images ?? Math.min(300, Math.ceil(hospitalExams.length / 6));
    await seedImages({ db, storage: opts.storage, clock: opts.clock }, [
      ...(await withImages(db, hospitalExams, wanted)), ...(await withImages(db, centreExams, Math.ceil(wanted / 10))), ...registry.pastExamIds,
    ], { uploaderId: ids.accounts.tech });
  }
  // Expert report requests and their payments: after the images, so the copies sent to the centre carry them.
  await seedPayments(db, rng(20261125), {
    now, groupId: ids.groupId, hospitalId: ids.hospitalId, centreId: ids.expertCentreId, applicants: [ids.accounts.rad1, ids.accounts.rad2],
    chief: ids.accounts.chief, expert: ids.accounts.expert, examIds: hospitalExams,
  });
  // The statistics screens' history: devices, note-takers, past registrations (updates, and rows no list shows).
  await seedStatistics(db, rng(20261126), {
    now, hospitalId: ids.hospitalId, registrarId: ids.accounts.registrar, noteTakers: [ids.accounts.registrar, ids.accounts.tech],
  });
  await db.execute(sql`analyze`);
  return ids;
}

/** The newest exams (what a reader opens first) get images, then every fourth older one, up to `count`. */
async function withImages(db: Db, ids: readonly number[], count: number): Promise<number[]> {
  if (ids.length === 0 || count <= 0) return [];
  const rows = await db.select({ id: t.exams.id }).from(t.exams).where(inArray(t.exams.id, [...ids])).orderBy(desc(t.exams.examTime));
  return rows.map((row) => row.id).filter((_, i) => i < count / 2 || i % 4 === 0).slice(0, count);
}

function randomToken(r: ReturnType<typeof rng>): string {
  return Array.from({ length: 32 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[r.int(0, 35)]).join('');
}
