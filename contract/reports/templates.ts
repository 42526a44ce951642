import { z } from 'zod';
import { decimalInt, idValue } from '../common';
import { REPORT_HTML_MAX } from '../constants';

const html = z.string().max(REPORT_HTML_MAX);

/* ── report templates (the writing templates of the workspace) ── */

export const templateTreeQuery = z.object({ bucketId: idValue });
export const templateSearchQuery = templateTreeQuery.extend({
  q: z.string().trim().min(1).max(64),
  modality: z.string().trim().max(8).optional(),
  limit: decimalInt(1, 100).default(30),
});

export const templateUpsertInput = z.object({
  id: z.number().int().positive().optional(),
  /** The organisation's tree, or (groupId instead) the group's shared tree: exactly one of the two. */
  bucketId: z.number().int().positive().optional(),
  groupId: z.number().int().positive().optional(),
  parentId: z.number().int().positive().nullable().default(null),
  name: z.string().trim().min(1).max(128),
  isFolder: z.boolean().default(false),
  modality: z.string().trim().max(8).nullable().optional(),
  bodyPart: z.string().trim().max(64).nullable().optional(),
  finding: html.default(''),
  diagnosis: html.default(''),
  sort: z.number().int().min(0).max(100_000).optional(),
}).superRefine((v, ctx) => {
  if ((v.bucketId === undefined) === (v.groupId === undefined)) {
    ctx.addIssue({ code: 'custom', path: v.bucketId === undefined ? ['bucketId'] : ['groupId'], message: 'give exactly one of bucketId and groupId' });
  }
});
export type TemplateUpsertInput = z.input<typeof templateUpsertInput>;

export interface TemplateNode {
  id: number;
  /** The organisation's tree, or null for the group's shared tree (groupId). */
  bucketId: number | null;
  groupId: number | null;
  parentId: number | null;
  name: string;
  isFolder: boolean;
  modality: string | null;
  bodyPart: string | null;
  finding: string;
  diagnosis: string;
  sort: number;
  children: TemplateNode[];
}
