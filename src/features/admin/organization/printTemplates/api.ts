import type { PrintImage, PrintLayout, PrintTemplate, PrintTemplateInput } from '../../../../../contract/printTemplates';
import { http, type RequestOptions } from '@/lib/http';
import { sendWithProgress } from '@/lib/http/form';

/** An organisation's print templates (docs/api.md "Print templates"). */
const base = (bucketId: number) => `buckets/${bucketId}/print-templates`;

export const printTemplatesApi = {
  list: (bucketId: number, layoutType: PrintLayout, options?: RequestOptions) =>
    http.get<PrintTemplate[]>(base(bucketId), { ...options, query: { layoutType: String(layoutType) } }),
  create: (bucketId: number, input: PrintTemplateInput) => http.post<PrintTemplate>(base(bucketId), input),
  update: (bucketId: number, id: number, input: PrintTemplateInput) => http.put<PrintTemplate>(`${base(bucketId)}/${id}`, input),
  remove: (bucketId: number, id: number) => http.delete(`${base(bucketId)}/${id}`),
  setDefault: (bucketId: number, id: number) => http.post<PrintTemplate>(`${base(bucketId)}/${id}/default`),
  /** PUT …/{logo|stamp}: form data with the file; the bearer in the header (no upload permit for these). */
  upload(bucketId: number, id: number, kind: PrintImage, file: File): Promise<PrintTemplate> {
    const form = new FormData();
    form.append('file', file, file.name);
    const token = http.tokens.read()?.accessToken;
    return sendWithProgress<PrintTemplate>({
      method: 'PUT', path: `${base(bucketId)}/${id}/${kind}`, body: form, onProgress: () => undefined,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  },
  removeImage: (bucketId: number, id: number, kind: PrintImage) => http.delete<PrintTemplate>(`${base(bucketId)}/${id}/${kind}`),
};
