import { useEffect, useMemo, useRef, useState } from 'react';
import type { Filter } from '../../../../contract/common';
import { REGISTRY_PAGE_SIZE, type SourceScope } from '../../../../contract/registry';
import { dayRange } from '../../../../contract/days';
import { useListPaging } from '@/lib/listPage';
import { useLoad } from '@/lib/useLoad';
import { usePolling } from '@/lib/usePolling';
import { registryApi } from '../api';

/** How often the desk asks again for the page shown (the modalities' progress arrives over DICOM, not from this desk). */
const REGISTRY_POLL_MS = 5000;

/** The desk's list: the day's lines under its filters, the page, and the quiet poll that keeps the page shown current. */
export function useDeskList(bucketId: number, day: string, timeZone: string) {
  // The list: the day's lines, the scope of patient sources, a status and a search.
  const [scope, setScope] = useState<SourceScope>('internal');
  const [status, setStatus] = useState<string>('');
  const [text, setText] = useState('');
  const filters = useMemo<Filter[]>(() => {
    const range = dayRange(day, timeZone);
    return [
      { field: 'scheduledTime', operator: 'gte', values: [range.from] },
      { field: 'scheduledTime', operator: 'lt', values: [range.to] },
      { field: 'sourceScope', operator: 'equal', values: [scope] },
      ...(status ? [{ field: 'examStatus', operator: 'equal' as const, values: [status] }] : []),
      ...(text.trim() ? [{ field: 'search', operator: 'like' as const, values: [text.trim()] }] : []),
    ];
  }, [day, timeZone, scope, status, text]);
  const filtersKey = JSON.stringify([bucketId, filters]);
  const { skip, setSkip } = useListPaging(filtersKey);
  const listKey = JSON.stringify([bucketId, filters, skip]);
  const list = useLoad(listKey, (signal) => registryApi.query(bucketId, { filters, skip, limit: REGISTRY_PAGE_SIZE }, { signal }));
  const rows = useMemo(() => list.data?.items ?? [], [list.data]);
  const total = list.data?.total ?? 0;
  // The modalities' progress (MPPS: scanning, done) and the other desks' changes reach the page shown without a reload:
  // a quiet poll, put in place only if the page is still the one asked (no dimming, unlike a reload).
  const shownKey = useRef(listKey);
  useEffect(() => { shownKey.current = listKey; }, [listKey]);
  const listError = list.error !== null;
  usePolling(() => {
    const asked = listKey;
    registryApi.query(bucketId, { filters, skip, limit: REGISTRY_PAGE_SIZE }).then((page) => {
      if (shownKey.current === asked) list.put(() => page);
    }, () => undefined);
  }, REGISTRY_POLL_MS, !listError);
  return { scope, setScope, status, setStatus, text, setText, filters, skip, setSkip, listKey, list, rows, total };
}
