import { z } from 'zod';
import { colourRuleProblems } from '../colourRules';
import { idValue } from '../common';

/** The colour rules' requests and answers (re-exported by `contract/exams.ts`, which checks their columns are its row's). */

/* ── report-table colour rules (areas §3 "Colour rule", §9 "smaller number is higher priority") ── */

/**
 * The worklist row fields a rule may read (`ExamListItem` keys). What a rule means is contract/colourRules.ts, read by
 * the server's checks below and by the worklist's painting: with neither bound, `value` must equal the cell
 * (case-insensitive; a yes/no column takes true or false, also 1 or 0; null matches an empty cell); with `gte` and/or
 * `lte`, the cell must lie within them (numbers as numbers, ISO times and other text as text).
 */
export const COLOUR_RULE_COLUMNS = [
  'reportStatus', 'modality', 'bodyPart', 'patientSource', 'patientGender', 'visitAge', 'urgentFlag', 'reportPositive',
  'reportSource', 'teleMedFlag', 'isRemoteReportRequested', 'hasImage', 'applyDept', 'bucketId', 'bucketName',
  'bodyPartCount', 'weight', 'height', 'patientDob', 'examTime', 'created', 'uploadTime', 'AIStatus', 'studyDescription',
  'reportCreatorName', 'assigneeName',
] as const;
export type ColourRuleColumn = (typeof COLOUR_RULE_COLUMNS)[number];

const colour = z.string().trim().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'a #rgb, #rrggbb or #rrggbbaa colour');
const bound = z.string().trim().min(1).max(64).nullable().default(null);

const colourRuleFields = z.object({
  name: z.string().trim().min(1).max(64),
  /** Smaller number = higher priority. */
  priority: z.number().int().min(0).max(9999),
  /** The rule's place in the settings list (shown order; ties of priority are decided by id). */
  index: z.number().int().min(0).max(9999).default(0),
  column: z.enum(COLOUR_RULE_COLUMNS),
  value: bound,
  gte: bound,
  lte: bound,
  foreColor: colour.nullable().default(null),
  backColor: colour.nullable().default(null),
});

type RuleShape = z.infer<typeof colourRuleFields>;

const checked = <S extends z.ZodType<RuleShape>>(schema: S) => schema.superRefine((r, ctx) => {
  for (const p of colourRuleProblems(r)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
});

export const colourRuleCreateInput = checked(colourRuleFields.extend({ groupId: z.number().int().positive().max(2_147_483_647) }).strict());
export type ColourRuleCreateInput = z.input<typeof colourRuleCreateInput>;
/** Update replaces the rule's fields (the settings form sends the whole rule); the group does not change. */
export const colourRuleUpdateInput = checked(colourRuleFields.extend({ id: z.number().int().positive().max(2_147_483_647) }).strict());
export type ColourRuleUpdateInput = z.input<typeof colourRuleUpdateInput>;
export const colourRuleGroupQuery = z.object({ groupId: idValue }).strict();

export interface ColourRule {
  id: number;
  groupId: number;
  name: string;
  priority: number;
  index: number;
  column: ColourRuleColumn;
  value: string | null;
  gte: string | null;
  lte: string | null;
  foreColor: string | null;
  backColor: string | null;
  created: string;
}
