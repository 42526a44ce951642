/** Role actions (core §6, areas §6). Custom roles carry subsets of these. */
export const ACTIONS = {
  exam: ['exam_update', 'exam_get', 'exam_delete', 'exam_upload', 'exam_bind', 'export_exams', 'study_package'],
  attachment: ['attachment_create', 'attachment_delete', 'attachment_presigned_url', 'attachment_upload'],
  template: ['template_upsert'],
  report: ['report_assign', 'report_upsert', 'report_advice', 'report_approval', 'report_recall', 'report_print', 'report_trace'],
  registry: ['registry_create', 'registry_update', 'registry_delete'],
  statistics: ['statistics_report'],
  consultation: [
    'consultation_create', 'consultation_update', 'consultation_delete', 'consultation_clinicCase_create',
    'consultation_clinicCase_delete', 'consultation_Exam_create', 'consultation_Exam_delete', 'consultation_submitSuggestion',
  ],
  quality: ['quality_upsert', 'quality_delete'],
  order: ['apply_expert_report', 'apply_remote_report', 'payment_refund', 'upload_apply_forms', 'order_report_publish'],
  queue: ['calling_manage_queue', 'calling_call'],
  other: ['manage_sample_graph'],
} as const;

export type Action = (typeof ACTIONS)[keyof typeof ACTIONS][number];
export const ALL_ACTIONS: readonly Action[] = Object.values(ACTIONS).flat() as Action[];

/** A collaborator gets report permissions only, through custom roles (core §6). */
export const COLLABORATOR_ACTIONS: readonly Action[] = ACTIONS.report;

/** A contentManager has full access to exams and reports (core §6). */
export const CONTENT_MANAGER_ACTIONS: readonly Action[] = [...ACTIONS.exam, ...ACTIONS.attachment, ...ACTIONS.report];

export const BUCKET_ACCESS = ['member', 'admin', 'collaborator', 'contentManager'] as const;
export type BucketAccess = (typeof BUCKET_ACCESS)[number];

export function isAction(value: string): value is Action {
  return (ALL_ACTIONS as readonly string[]).includes(value);
}
