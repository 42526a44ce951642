import { z } from 'zod';

/**
 * The group's pathology system (core §3 Group.pathologyUrl, §2 navbar "pathology"): an address, optionally a template
 * whose placeholders the exam in hand fills, e.g. `https://lis.example/case?acc={accessionNumber}&pid={patientId}`.
 * Only these names; the patient's name and other identifying text are not offered (they would leave in a URL).
 */
export const PATHOLOGY_PLACEHOLDERS = ['examId', 'accessionNumber', 'patientId', 'orderId'] as const;
export type PathologyPlaceholder = (typeof PATHOLOGY_PLACEHOLDERS)[number];
export type PathologyContext = Partial<Record<PathologyPlaceholder, string | number | null>>;

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The template with each placeholder replaced by its value, URL-encoded (a missing value leaves it empty). */
export function pathologyUrlFor(template: string, context: PathologyContext = {}): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = context[name as PathologyPlaceholder];
    return value === null || value === undefined ? '' : encodeURIComponent(String(value));
  });
}

/** Why a template is refused, or null: it must be an absolute http(s) URL with known placeholders only. */
export function pathologyTemplateProblem(template: string): string | null {
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(PATHOLOGY_PLACEHOLDERS as readonly string[]).includes(name!)) return `unknown placeholder {${name}}; allowed: ${PATHOLOGY_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`;
  }
  let url: URL;
  try {
    url = new URL(pathologyUrlFor(template, { examId: 1, accessionNumber: 'A', patientId: 'P', orderId: 'O' }));
  } catch {
    return 'an absolute http(s) URL';
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'an http(s) URL';
}

/** PATCH groups/{id} pathologyUrl: '' or null clears it; otherwise a valid template (ParamsError with the reason). */
export const pathologyUrlInput = z.string().trim().max(1024).nullable()
  .transform((v) => (v === '' ? null : v))
  .superRefine((v, ctx) => {
    const problem = v === null ? null : pathologyTemplateProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
