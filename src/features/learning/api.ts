import type { Learning, LearningListQuery, LearningPage, LearningProgress, LearningProgressInput } from '../../../contract/learning';
import { http, type RequestOptions } from '@/lib/http';

/** Learning videos (docs/api.md "Learning"): list and detail are public; progress is the signed-in account's. */
export const learningApi = {
  list: (query: LearningListQuery, options?: RequestOptions) =>
    http.get<LearningPage>('learnings', { ...options, query: { q: query.q || undefined, category: query.category || undefined, skip: query.skip, limit: query.limit } }),
  get: (id: number, options?: RequestOptions) => http.get<Learning>(`learnings/${id}`, options),
  /** `keepalive` for the last write sent while the page goes away (a reload or a closed tab). */
  saveProgress: (id: number, input: LearningProgressInput, options?: RequestOptions) =>
    http.put<LearningProgress>(`learnings/${id}/progress`, input, options),
};
