import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParam, idValue } from '../../contract/common';
import { sanitizeReportHtml } from '../../contract/reportHtml';
import type { PrintData } from '../../contract/reports';
import { QR_TEXT_MAX } from '../../contract/constants';
import { mayPrintNow, presentedStatus, refusalFor } from '../../machines/reportTransitions';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { accounts, buckets, exams, printTemplates } from '../db/schema';
import { findPrintTemplate, printImageUrl } from '../organizations/printTemplates';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { listKeyImages } from '../images/keyImages';
import { actorIn, readableReport } from './load';

type TemplateRow = typeof printTemplates.$inferSelect;

/** An exam report's layout (areas §3); layout 3 is the consultation's, printed by the consultation view. */
const EXAM_LAYOUT = 1;
/** `?templateId`: print with another exam template of the report's organisation instead of the default. */
const printQuery = z.object({ templateId: idValue.optional() });

/** The template asked for, when it is an exam template of the organisation; anything else is not found. */
async function chosenPrintTemplate(db: Db, bucketId: number, templateId: number): Promise<TemplateRow> {
  const row = await findPrintTemplate(db, bucketId, templateId);
  if (!row || row.layoutType !== EXAM_LAYOUT) throw new ApiError('NotFound');
  return row;
}

/**
 * The organisation's default print template for an exam: the default for its modality, else the general
 * default. Core §8: none configured, or none chosen as default, is NoPrintTemplate.
 */
export async function defaultPrintTemplate(db: Db, bucketId: number, modality: string): Promise<TemplateRow> {
  const defaults = await db.select().from(printTemplates)
    .where(and(eq(printTemplates.bucketId, bucketId), eq(printTemplates.layoutType, EXAM_LAYOUT), eq(printTemplates.isDefault, true)))
    .orderBy(asc(printTemplates.id));
  const chosen = defaults.find((t) => t.modality === modality) ?? defaults.find((t) => t.modality === null);
  if (!chosen) throw new ApiError('NoPrintTemplate');
  return chosen;
}

/** Static text from the template, or a per-report code for the dynamic kind; never over QR_TEXT_MAX characters. */
export function qrTextFor(template: TemplateRow, reportId: number): string | null {
  if (template.qrMode === 'static') return template.qrText ? template.qrText.slice(0, QR_TEXT_MAX) : null;
  if (template.qrMode === 'dynamic') return `R${reportId.toString(36).toUpperCase()}`.slice(0, QR_TEXT_MAX);
  return null;
}

export async function printRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/reports/:id/print-data', async (req): Promise<PrintData> => {
    const { id } = parse(idParam, req.params);
    const { templateId } = parse(printQuery, req.query);
    const access = await authOf(req).access();
    const loaded = await readableReport(db, access, id);
    const { row, state } = loaded;
    const actor = actorIn(access, row.bucketId);
    // Printing is offered by the machine (core §4: printable only when corrected; a printed one reprints).
    if (!mayPrintNow(state, actor)) throw new ApiError(refusalFor(state, actor, state.status === 'printed' ? 'update-print-time' : 'print'));

    const [exam] = await db.select().from(exams).where(eq(exams.id, row.examId));
    const template = templateId === undefined ? await defaultPrintTemplate(db, row.bucketId, exam!.modality) : await chosenPrintTemplate(db, row.bucketId, templateId);
    const choices = await db.select({ id: printTemplates.id, name: printTemplates.name, modality: printTemplates.modality, isDefault: printTemplates.isDefault })
      .from(printTemplates).where(and(eq(printTemplates.bucketId, row.bucketId), eq(printTemplates.layoutType, EXAM_LAYOUT)))
      .orderBy(asc(printTemplates.name), asc(printTemplates.id));
    const [bucket] = await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(eq(buckets.id, row.bucketId));
    const people = [row.creatorId, row.issuerId].filter((x): x is number => x !== null);
    const found = people.length ? await db.select({ id: accounts.id, name: accounts.name, signature: accounts.signature }).from(accounts).where(inArray(accounts.id, people)) : [];
    const who = (accountId: number | null) => found.find((a) => a.id === accountId) ?? null;
    const creator = who(row.creatorId);
    // Signed read links made the one way the workspace's key-image list makes them.
    const keyImages = await listKeyImages(db, deps.storage, row.id);
    const approver = who(row.issuerId);
    const e = exam!;
    return {
      template: {
        id: template.id, name: template.name, titles: template.titles,
        logo: await printImageUrl(deps.storage, template.logo), stamp: await printImageUrl(deps.storage, template.stamp),
        signatureOf: template.signatureOf === 'creator' ? 'creator' : 'approver',
        qrMode: template.qrMode === 'static' || template.qrMode === 'dynamic' ? template.qrMode : 'none',
        exactTime: template.exactTime, pageNumbers: template.pageNumbers,
      },
      qrText: qrTextFor(template, row.id),
      organisation: { id: bucket!.id, name: bucket!.name },
      exam: {
        id: e.id, patientName: e.patientName, patientId: e.patientId, patientGender: e.patientGender, visitAge: e.visitAge,
        patientDob: e.patientDob, patientSource: e.patientSource, inpatientId: e.inpatientId, bedNum: e.bedNum,
        outpatientId: e.outpatientId, physicalExamId: e.physicalExamId, accessionNumber: e.accessionNumber,
        modality: e.modality, bodyPart: e.bodyPart, studyDescription: e.studyDescription, clinicImpression: e.clinicImpression,
        applyDept: e.applyDept, examTime: e.examTime.toISOString(),
      },
      report: {
        id: row.id, status: presentedStatus(state),
        // Stored HTML is already clean; cleaning again costs little and keeps the print safe from older rows.
        finding: sanitizeReportHtml(row.finding), diagnosis: sanitizeReportHtml(row.diagnosis),
        positive: row.positive, criticalValue: row.criticalValue, bodypartCount: row.bodypartCount,
        submittedAt: (row.printSubmittedAt ?? row.submittedTime)?.toISOString() ?? null,
        approvedAt: (row.printApprovedAt ?? row.approvedTime)?.toISOString() ?? null,
      },
      creator, approver,
      signature: (template.signatureOf === 'creator' ? creator : approver)?.signature ?? null,
      templates: choices,
      keyImages: keyImages.map(({ id: imageId, url, description }) => ({ id: imageId, url, description })),
    };
  });
}
