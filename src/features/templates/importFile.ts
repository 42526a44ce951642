import type { TFunction } from 'i18next';
import { documentClash, documentSizeProblem, templateDocument, type TemplateDocument } from '../../../contract/templates';

/**
 * An export file read back for import: the document, or the first problem in words (where in the document, and what)
 * for the import dialog to show before anything is sent.
 */
export async function readTemplateFile(file: Blob, t: TFunction): Promise<{ document: TemplateDocument | null; problem: string | null }> {
  let problem: string | null = null;
  let document: TemplateDocument | null = null;
  try {
    const raw: unknown = JSON.parse(await file.text());
    const size = documentSizeProblem({ items: (raw as { items?: unknown } | null)?.items });
    if (size) problem = `${size.path}: ${size.message}`;
    else {
      const parsed = templateDocument.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        problem = `${['document', ...issue.path].join('.')}: ${issue.message}`;
      } else {
        const twin = documentClash(parsed.data.items);
        if (twin) problem = `${twin.path}: ${t('templates.import.twin', { name: twin.name })}`;
        else document = parsed.data;
      }
    }
  } catch {
    problem = t('templates.import.notJson');
  }
  return { document, problem };
}
