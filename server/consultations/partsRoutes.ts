import { and, eq, isNull } from 'drizzle-orm';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { idParam, idValue } from '../../contract/common';
import {
  CONSULTATION_ATTACHMENT_MAX_BYTES, consultationCaseInput, consultationLinkInput, consultationVisitExamInput,
  type ConsultationAttachment, type ConsultationCase, type ConsultationLink, type ConsultationVisitExam,
} from '../../contract/consultations';
import type { Access } from '../access/access';
import { recordAudit, type AuditEvent } from '../audit/record';
import { authOf } from '../auth/plugin';
import { consultationAttachments, consultationCases, consultationExams, consultationLinks, exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { formFile } from '../http/multipart';
import { parse } from '../http/validate';
import { StorageLimitError, storedName } from '../storage/types';
import { attachmentTypeOf, signatureCheck } from './attachmentTypes';
import { inConsultation, loadConsultation, type LoadedConsultation, type Tx } from './load';
import { loadLinks, loadVisitExams, peopleById, presentAttachment } from './parts';
import { consultationViewRoutes } from './viewRoutes';

/**
 * A consultation's parts (areas §3): cases and their files, linked consultations, visit exams. Every write runs in
 * inConsultation (the row locked, the machine asked: ./load.ts) and leaves its audit event in the same transaction;
 * stored bytes are removed only after the rows that named them are gone.
 */
const caseParams = z.object({ id: idValue, caseId: idValue });
const attachmentParams = z.object({ id: idValue, attachmentId: idValue });
const linkParams = z.object({ id: idValue, linkedId: idValue });
const examParams = z.object({ id: idValue, examId: idValue });

const paramsError = (path: string, message: string) => new ApiError('ParamsError', undefined, { fields: [{ path, message }] });

type Change = Pick<AuditEvent, 'action' | 'before' | 'after'>;

function audit(tx: Tx, deps: Deps, c: LoadedConsultation, access: Access, change: Change): Promise<void> {
  return recordAudit(tx, {
    area: 'consultations', objectType: 'consultation', objectId: c.row.id, bucketId: c.row.appliedBucketId,
    actorId: access.accountId, at: deps.clock.now(), ...change,
  });
}

/** The name shown for a file: the uploader's name without folders or control characters. */
function displayName(filename: string | undefined, extension: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const base = (filename ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return base || `attachment.${extension}`;
}

export async function consultationPartRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db, storage } = deps;
  await app.register(multipart);
  await consultationViewRoutes(app, { deps });

  // —— cases ——

  app.post('/consultations/:id/cases', async (req, reply): Promise<ConsultationCase> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationCaseInput, req.body);
    const access = await authOf(req).access();
    const row = await inConsultation(deps, access, id, 'addCase', async (tx, c) => {
      const [inserted] = await tx.insert(consultationCases).values({
        consultationId: id, name: input.name, type: input.type, note: input.note ?? '', createdBy: access.accountId, created: deps.clock.now(),
      }).returning();
      await audit(tx, deps, c, access, { action: 'case.create', after: { caseId: inserted!.id, name: input.name, type: input.type } });
      return inserted!;
    });
    const people = await peopleById(db, [row.createdBy]);
    reply.status(201);
    return {
      id: row.id, name: row.name, type: input.type, note: row.note ?? '', createdBy: people.get(row.createdBy)!,
      created: row.created.toISOString(), attachments: [],
    };
  });

  app.delete('/consultations/:id/cases/:caseId', async (req, reply) => {
    const { id, caseId } = parse(caseParams, req.params);
    const access = await authOf(req).access();
    const keys = await inConsultation(deps, access, id, 'deleteCase', async (tx, c) => {
      const [found] = await tx.select().from(consultationCases).where(and(eq(consultationCases.id, caseId), eq(consultationCases.consultationId, id)));
      if (!found) throw new ApiError('NotFound');
      const files = await tx.select({ id: consultationAttachments.id, key: consultationAttachments.storageKey })
        .from(consultationAttachments).where(eq(consultationAttachments.caseId, caseId));
      // The case's attachments go with it (on delete cascade).
      await tx.delete(consultationCases).where(eq(consultationCases.id, caseId));
      await audit(tx, deps, c, access, {
        action: 'case.delete', before: { caseId, name: found.name, type: found.type, attachmentIds: files.map((f) => f.id) },
      });
      return files.map((f) => f.key).filter((k): k is string => k !== null);
    });
    for (const key of keys) await storage.delete(key);
    reply.status(204).send();
  });

  // —— attachments (areas §4: processing, then completed) ——

  app.post('/consultations/:id/cases/:caseId/attachments', async (req, reply): Promise<ConsultationAttachment> => {
    const { id, caseId } = parse(caseParams, req.params);
    const access = await authOf(req).access();
    const { file } = await formFile(req, CONSULTATION_ATTACHMENT_MAX_BYTES);
    let kind: ReturnType<typeof attachmentTypeOf>;
    try {
      kind = attachmentTypeOf(file.filename ?? '');
    } catch (err) {
      file.file.resume();
      throw err;
    }
    // The row first, 'processing', so the case shows the file arriving; then the bytes; then 'completed'.
    let created: { row: typeof consultationAttachments.$inferSelect; bucketId: number };
    try {
      created = await inConsultation(deps, access, id, 'addCase', async (tx, c) => {
        const [found] = await tx.select({ id: consultationCases.id }).from(consultationCases)
          .where(and(eq(consultationCases.id, caseId), eq(consultationCases.consultationId, id)));
        if (!found) throw new ApiError('NotFound');
        const name = displayName(file.filename, kind.extension);
        const [row] = await tx.insert(consultationAttachments).values({
          consultationId: id, caseId, name, fileType: kind.type.contentType, size: 0, status: 'processing',
          storageKey: `consultations/${c.row.appliedBucketId}/${id}/${storedName(kind.extension)}`,
          createdBy: access.accountId, created: deps.clock.now(),
        }).returning();
        await audit(tx, deps, c, access, { action: 'attachment.create', after: { attachmentId: row!.id, caseId, name, fileType: row!.fileType } });
        return { row: row!, bucketId: c.row.appliedBucketId };
      });
    } catch (err) {
      file.file.resume();
      throw err;
    }
    const key = created.row.storageKey!;
    let size: number;
    const check = signatureCheck(kind.type);
    try {
      const stored = storage.put(key, check, { contentType: kind.type.contentType, maxBytes: CONSULTATION_ATTACHMENT_MAX_BYTES });
      await Promise.all([pipeline(file.file, check).catch((err: unknown) => { check.destroy(err as Error); throw err; }), stored]);
      ({ size } = await stored);
      // Over the limit the form parser cuts the file short (truncated) rather than failing the stream.
      if (file.file.truncated) throw new ApiError('FileTooLarge', undefined, { maxBytes: CONSULTATION_ATTACHMENT_MAX_BYTES });
    } catch (err) {
      // Whichever side failed, neither waits for the other any more.
      check.destroy();
      file.file.destroy();
      await failUpload(created, access);
      if (err instanceof StorageLimitError || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new ApiError('FileTooLarge', undefined, { maxBytes: CONSULTATION_ATTACHMENT_MAX_BYTES });
      }
      throw err;
    }
    const [done] = await db.update(consultationAttachments)
      .set({ status: 'completed', size, completedAt: deps.clock.now() })
      .where(eq(consultationAttachments.id, created.row.id)).returning();
    if (!done) {
      // The case (or the attachment) was deleted while the bytes arrived: nothing names them any more.
      await storage.delete(key);
      throw new ApiError('NotFound');
    }
    reply.status(201);
    return presentAttachment(storage, done);
  });

  /** A refused or broken upload leaves neither its row nor its bytes; the trail says why the file went. */
  async function failUpload({ row, bucketId }: { row: typeof consultationAttachments.$inferSelect; bucketId: number }, access: Access): Promise<void> {
    await storage.delete(row.storageKey!);
    await db.transaction(async (tx) => {
      const [removed] = await tx.delete(consultationAttachments).where(eq(consultationAttachments.id, row.id)).returning({ id: consultationAttachments.id });
      if (!removed) return;
      await recordAudit(tx, {
        area: 'consultations', objectType: 'consultation', objectId: row.consultationId, bucketId, actorId: access.accountId, at: deps.clock.now(),
        action: 'attachment.delete', before: { attachmentId: row.id, caseId: row.caseId, name: row.name }, after: { reason: 'upload failed' },
      });
    });
  }

  app.get('/consultations/:id/attachments/:attachmentId', async (req): Promise<ConsultationAttachment> => {
    const { id, attachmentId } = parse(attachmentParams, req.params);
    await loadConsultation(db, await authOf(req).access(), id);
    const [row] = await db.select().from(consultationAttachments)
      .where(and(eq(consultationAttachments.id, attachmentId), eq(consultationAttachments.consultationId, id)));
    if (!row) throw new ApiError('NotFound');
    return presentAttachment(storage, row);
  });

  app.delete('/consultations/:id/attachments/:attachmentId', async (req, reply) => {
    const { id, attachmentId } = parse(attachmentParams, req.params);
    const access = await authOf(req).access();
    const key = await inConsultation(deps, access, id, 'deleteCase', async (tx, c) => {
      const [removed] = await tx.delete(consultationAttachments)
        .where(and(eq(consultationAttachments.id, attachmentId), eq(consultationAttachments.consultationId, id))).returning();
      if (!removed) throw new ApiError('NotFound');
      await audit(tx, deps, c, access, {
        action: 'attachment.delete', before: { attachmentId, caseId: removed.caseId, name: removed.name, size: removed.size },
      });
      return removed.storageKey;
    });
    if (key) await storage.delete(key);
    reply.status(204).send();
  });

  // —— linked consultations ——

  app.post('/consultations/:id/links', async (req, reply): Promise<ConsultationLink[]> => {
    const { id } = parse(idParam, req.params);
    const { linkedId } = parse(consultationLinkInput, req.body);
    const access = await authOf(req).access();
    if (linkedId === id) throw paramsError('linkedId', 'a consultation cannot be linked to itself');
    const added = await inConsultation(deps, access, id, 'link', async (tx, c) => {
      // The other one must be readable too (404 as for any consultation the account cannot see).
      await loadConsultation(tx, access, linkedId);
      const [row] = await tx.insert(consultationLinks).values({ consultationId: id, linkedId, createdBy: access.accountId, created: deps.clock.now() })
        .onConflictDoNothing().returning();
      if (row) await audit(tx, deps, c, access, { action: 'link.create', after: { linkedId } });
      return row !== undefined;
    });
    reply.status(added ? 201 : 200);
    return loadLinks(db, id);
  });

  app.delete('/consultations/:id/links/:linkedId', async (req, reply) => {
    const { id, linkedId } = parse(linkParams, req.params);
    const access = await authOf(req).access();
    await inConsultation(deps, access, id, 'link', async (tx, c) => {
      const [removed] = await tx.delete(consultationLinks)
        .where(and(eq(consultationLinks.consultationId, id), eq(consultationLinks.linkedId, linkedId))).returning();
      if (!removed) throw new ApiError('NotFound');
      await audit(tx, deps, c, access, { action: 'link.delete', before: { linkedId } });
    });
    reply.status(204).send();
  });

  // —— visit exams ——

  app.post('/consultations/:id/visit-exams', async (req, reply): Promise<ConsultationVisitExam[]> => {
    const { id } = parse(idParam, req.params);
    const { examId } = parse(consultationVisitExamInput, req.body);
    const access = await authOf(req).access();
    const added = await inConsultation(deps, access, id, 'addExam', async (tx, c) => {
      // Only the applicant's own live exams: an id from elsewhere (or a deleted exam) says nothing about it.
      const [exam] = await tx.select({ id: exams.id }).from(exams)
        .where(and(eq(exams.id, examId), eq(exams.bucketId, c.row.appliedBucketId), isNull(exams.deletedTime)));
      if (!exam) throw paramsError('examId', 'not a live exam of the applicant organisation');
      const [row] = await tx.insert(consultationExams).values({ consultationId: id, examId, addedBy: access.accountId, created: deps.clock.now() })
        .onConflictDoNothing().returning();
      if (row) await audit(tx, deps, c, access, { action: 'exam.create', after: { examId } });
      return row !== undefined;
    });
    reply.status(added ? 201 : 200);
    return loadVisitExams(db, id);
  });

  app.delete('/consultations/:id/visit-exams/:examId', async (req, reply) => {
    const { id, examId } = parse(examParams, req.params);
    const access = await authOf(req).access();
    await inConsultation(deps, access, id, 'deleteExam', async (tx, c) => {
      // The exam the consultation was started from is its subject, not an extra visit.
      if (c.row.examId === examId) throw paramsError('examId', 'the exam the consultation was started from stays');
      const [removed] = await tx.delete(consultationExams)
        .where(and(eq(consultationExams.consultationId, id), eq(consultationExams.examId, examId))).returning();
      if (!removed) throw new ApiError('NotFound');
      await audit(tx, deps, c, access, { action: 'exam.delete', before: { examId } });
    });
    reply.status(204).send();
  });
}
