/** The registry's addresses: the desk (organisation and day in the URL) and the label print view. */
export const registryPath = (bucketId: number | null, day?: string | null) => {
  const query = new URLSearchParams();
  if (bucketId !== null) query.set('bucketId', String(bucketId));
  if (day) query.set('day', day);
  const text = query.toString();
  return text ? `/registry?${text}` : '/registry';
};

export const labelsPath = (bucketId: number, examIds: readonly number[]) => `/registry/labels?bucketId=${bucketId}&examIds=${examIds.join(',')}`;

/** A positive integer id from a query value, or null. */
export function idFrom(value: string | null): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

/** YYYY-MM-DD, or null. */
export function dayFrom(value: string | null): string | null {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : null;
}
