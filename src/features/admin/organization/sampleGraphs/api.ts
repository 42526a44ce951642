import type { GlobalConfigAnswer } from '../../../../../contract/globalConfigs';
import type { SampleGraph, SampleGraphUpdateInput } from '../../../../../contract/sampleGraphs';
import { http, type RequestOptions } from '@/lib/http';

/** Sample graphs (docs/api.md "Sample graphs") and the one global setting the screen reads. */
export const sampleGraphsApi = {
  list: (bucketId: number, options?: RequestOptions) => http.get<SampleGraph[]>('sample-graphs/query', { ...options, query: { bucketId } }),
  upload: (bucketId: number, name: string, origin: string, file: File) => {
    // The text fields go before the file: the server reads them as the file starts.
    const form = new FormData();
    form.append('bucketId', String(bucketId));
    form.append('name', name);
    form.append('origin', origin);
    form.append('file', file, file.name);
    return http.post<SampleGraph>('sample-graphs', form);
  },
  update: (id: number, input: SampleGraphUpdateInput) => http.patch<SampleGraph>(`sample-graphs/${id}`, input),
  remove: (id: number) => http.delete(`sample-graphs/${id}`),
  resort: (id: number, preId: number | null) => http.post<{ ids: number[] }>(`sample-graphs/${id}/resort`, { preId }),
  /** The largest drawing the server takes (global config sampleGraphMaxMb), in bytes. */
  maxBytes: async (options?: RequestOptions) => {
    const answer = await http.get<GlobalConfigAnswer>('global-configs/query', { ...options, query: { keys: 'sampleGraphMaxMb' } });
    return (answer.sampleGraphMaxMb ?? 5) * 1024 * 1024;
  },
};

/** Where a drawing goes when moved one place up or down: the id it then follows (null: first), or undefined (no move). */
export function preIdFor(ids: readonly number[], id: number, step: -1 | 1): number | null | undefined {
  const at = ids.indexOf(id);
  const to = at + step;
  if (at < 0 || to < 0 || to >= ids.length) return undefined;
  const rest = ids.filter((x) => x !== id);
  return to === 0 ? null : rest[to - 1]!;
}
