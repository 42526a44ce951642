import { CONSULTATION_NOTE_MAX, CONSULTATION_REASON_MAX, type ConsultationCreateInput } from '../../../../contract/consultations';

export type MemberRole = 'member' | 'expert';

/** The create form as typed. Members are keyed by account id with the role chosen. */
export interface CreateDraft {
  targetBucketId: number | null;
  joinedBucketIds: number[];
  reason: string;
  note: string;
  patientTel: string;
  patientEmail: string;
  members: Map<number, MemberRole>;
}

export type DraftField = 'targetBucketId' | 'reason' | 'note' | 'patientTel' | 'patientEmail';
export type DraftErrors = Partial<Record<DraftField, string>>;

export const emptyDraft = (targetBucketId: number | null): CreateDraft => ({
  targetBucketId, joinedBucketIds: [], reason: '', note: '', patientTel: '', patientEmail: '', members: new Map(),
});

const TEL = /^[0-9+\-() ]*$/;
// The contract's z.email() decides; this only catches what is plainly not an address before sending.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The contract's rules, said before the server has to (error texts are i18n keys). */
export function validate(draft: CreateDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (draft.targetBucketId === null) errors.targetBucketId = 'consultations.create.errors.target';
  if (!draft.reason.trim()) errors.reason = 'consultations.create.errors.reason';
  else if (draft.reason.trim().length > CONSULTATION_REASON_MAX) errors.reason = 'consultations.create.errors.tooLong';
  if (draft.note.trim().length > CONSULTATION_NOTE_MAX) errors.note = 'consultations.create.errors.tooLong';
  if (!TEL.test(draft.patientTel.trim()) || draft.patientTel.trim().length > 32) errors.patientTel = 'consultations.create.errors.tel';
  if (draft.patientEmail.trim() && !EMAIL.test(draft.patientEmail.trim())) errors.patientEmail = 'consultations.create.errors.email';
  return errors;
}

export function toInput(draft: CreateDraft, examId: number, reportId: number | null): ConsultationCreateInput {
  return {
    examId,
    reportId,
    targetBucketId: draft.targetBucketId!,
    reason: draft.reason.trim(),
    note: draft.note.trim(),
    patientTel: draft.patientTel.trim(),
    patientEmail: draft.patientEmail.trim(),
    joinedBucketIds: draft.joinedBucketIds.filter((id) => id !== draft.targetBucketId),
    members: [...draft.members].map(([accountId, role]) => ({ accountId, role })),
  };
}

/** Server field names (ParamsError details.fields) that the form shows beside a field. */
export function fieldOf(serverField: string): DraftField | null {
  const name = serverField.split('.')[0];
  return name === 'targetBucketId' || name === 'reason' || name === 'note' || name === 'patientTel' || name === 'patientEmail' ? name : null;
}
