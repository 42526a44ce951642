import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import {
  CONSULTATION_STATUS, consultationCancelInput, consultationPaymentInput, consultationRatingInput, consultationResultInput,
  consultationStatusInput, consultationUpdateInput, isPastStart, type ConsultationDetail,
} from '../../contract/consultations';
import { isBlankReportHtml, sanitizeReportHtml } from '../../contract/reportHtml';
import { authOf } from '../auth/plugin';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { writeConsultation, type RowUpdate } from './write';

/**
 * The writes to a consultation row (areas §7 "Consultations"): the applicant's fields, schedule and approve, cancel,
 * the result, the rating, the payment status. Each carries the version it read; machines/consultation.ts decides.
 */
export async function consultationStatusRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  // The applicant's own fields while the consultation is open.
  app.patch('/consultations/:id', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationUpdateInput, req.body);
    const access = await authOf(req).access();
    return writeConsultation(deps, access, id, {
      action: 'update', version: input.version, audit: 'update',
      columns: () => {
        const out: RowUpdate = {};
        if (input.reason !== undefined) out.reason = input.reason;
        if (input.note !== undefined) out.note = input.note;
        if (input.patientTel !== undefined) out.patientTel = input.patientTel;
        if (input.patientEmail !== undefined) out.patientEmail = input.patientEmail;
        return out;
      },
    });
  });

  // Schedule (status 1, areas §5: a start time is required) or approve (status 3).
  app.post('/consultations/:id/update-status', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationStatusInput, req.body);
    const access = await authOf(req).access();
    if (input.status === CONSULTATION_STATUS.scheduled) {
      const scheduledTime = input.scheduledTime;
      if (scheduledTime === null) {
        throw new ApiError('ParamsError', 'A start time is required to schedule', { fields: [{ path: 'scheduledTime', message: 'required to schedule' }] });
      }
      if (isPastStart(new Date(scheduledTime), deps.clock.now())) {
        throw new ApiError('ConsultationTimePast', undefined, { fields: [{ path: 'scheduledTime', message: 'already past' }] });
      }
      return writeConsultation(deps, access, id, {
        action: 'schedule', input: { scheduledTime }, version: input.version, audit: 'schedule',
        columns: () => ({ scheduledTime: new Date(scheduledTime) }),
      });
    }
    return writeConsultation(deps, access, id, {
      action: 'approve', version: input.version, audit: 'approve',
      columns: (_c, now) => ({ approvedBy: access.accountId, approvedAt: now }),
    });
  });

  app.post('/consultations/:id/cancel', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationCancelInput, req.body);
    const access = await authOf(req).access();
    return writeConsultation(deps, access, id, {
      action: 'cancel', input: { reason: input.reason }, version: input.version, audit: 'cancel',
      columns: () => ({ cancelReason: input.reason }),
    });
  });

  // The result: sanitised as report HTML; a conclusion without text is refused (areas §5).
  app.put('/consultations/:id/results', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationResultInput, req.body);
    const conclusion = sanitizeReportHtml(input.conclusion);
    if (isBlankReportHtml(conclusion)) throw new ApiError('ConsultationResultEmpty', undefined, { fields: [{ path: 'conclusion', message: 'empty' }] });
    const treatmentPlan = sanitizeReportHtml(input.treatmentPlan);
    const access = await authOf(req).access();
    return writeConsultation(deps, access, id, {
      action: 'writeResult', input: { hasContent: true }, version: input.version, audit: 'result',
      columns: (_c, now) => ({ conclusion, treatmentPlan, resultBy: access.accountId, resultAt: now }),
    });
  });

  // Once (areas §4): a second rating is 409 ConsultationRated.
  app.post('/consultations/:id/rating', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationRatingInput, req.body);
    const access = await authOf(req).access();
    return writeConsultation(deps, access, id, {
      action: 'rate', input: { rating: input.rating }, version: input.version, audit: 'rate',
      columns: (_c, now) => ({ rating: input.rating, ratingComment: input.comment, ratedBy: access.accountId, ratedAt: now }),
    });
  });

  // By hand, in any status (areas §4: a field beside the state).
  app.post('/consultations/:id/payment-status', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationPaymentInput, req.body);
    const access = await authOf(req).access();
    return writeConsultation(deps, access, id, {
      action: 'setPayment', input: { paymentStatus: input.paymentStatus }, version: input.version, audit: 'payment',
      columns: () => ({ paymentStatus: input.paymentStatus }),
    });
  });
}
