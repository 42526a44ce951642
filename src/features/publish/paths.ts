/** Where the publishing desk lives (core §2: /report-publish and /report-publish/detail?examId&reportId). */
export const PUBLISH_LIST = '/report-publish';
export const PUBLISH_DETAIL = '/report-publish/detail';

/** The list of one organisation's publications, at a page (`skip` rows in). */
export function publishListPath(bucketId?: number | null, skip = 0): string {
  const query = new URLSearchParams();
  if (bucketId) query.set('bucketId', String(bucketId));
  if (skip > 0) query.set('skip', String(skip));
  const qs = query.toString();
  return qs ? `${PUBLISH_LIST}?${qs}` : PUBLISH_LIST;
}

/** One report's publishing page. */
export function publishDetailPath(examId: number, reportId: number): string {
  return `${PUBLISH_DETAIL}?examId=${examId}&reportId=${reportId}`;
}

/** A positive integer id from the query, or null for a missing or broken one. */
export function idFrom(raw: string | null): number | null {
  if (raw === null || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}
