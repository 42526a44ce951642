/** What grouping needs of an instance: the wizard groups parsed headers, the viewer's series list groups stored rows. */
export interface GroupableInstance {
  studyInstanceUid: string;
  seriesInstanceUid: string;
  sopInstanceUid: string;
  seriesNumber: number | null;
  seriesDescription: string | null;
  instanceNumber: number | null;
  modality: string | null;
}

export interface SeriesGroup<T> {
  seriesInstanceUid: string;
  seriesNumber: number | null;
  seriesDescription: string | null;
  modality: string | null;
  instances: T[];
}

export interface StudyGroup<T> {
  studyInstanceUid: string;
  series: SeriesGroup<T>[];
  instanceCount: number;
}

export interface Grouping<T> {
  studies: StudyGroup<T>[];
  /** Files whose SOP Instance UID was already seen (the same image chosen twice): kept out of the groups. */
  duplicates: T[];
}

const byNumber = (a: number | null, b: number | null) => (a ?? Number.MAX_SAFE_INTEGER) - (b ?? Number.MAX_SAFE_INTEGER);

/**
 * Study → series → instances, the order a viewer shows them: series by Series Number, instances by
 * Instance Number (missing numbers last, then by UID so the order is stable).
 */
export function groupInstances<T extends GroupableInstance>(items: readonly T[]): Grouping<T> {
  const seen = new Set<string>();
  const duplicates: T[] = [];
  const studies = new Map<string, Map<string, SeriesGroup<T>>>();
  for (const item of items) {
    if (seen.has(item.sopInstanceUid)) { duplicates.push(item); continue; }
    seen.add(item.sopInstanceUid);
    let seriesMap = studies.get(item.studyInstanceUid);
    if (!seriesMap) studies.set(item.studyInstanceUid, (seriesMap = new Map()));
    let series = seriesMap.get(item.seriesInstanceUid);
    if (!series) {
      series = { seriesInstanceUid: item.seriesInstanceUid, seriesNumber: item.seriesNumber, seriesDescription: item.seriesDescription, modality: item.modality, instances: [] };
      seriesMap.set(item.seriesInstanceUid, series);
    }
    series.seriesNumber ??= item.seriesNumber;
    series.seriesDescription ??= item.seriesDescription;
    series.modality ??= item.modality;
    series.instances.push(item);
  }
  const result: StudyGroup<T>[] = [];
  for (const [studyInstanceUid, seriesMap] of studies) {
    const series = [...seriesMap.values()].sort((a, b) => byNumber(a.seriesNumber, b.seriesNumber) || a.seriesInstanceUid.localeCompare(b.seriesInstanceUid));
    for (const s of series) s.instances.sort((a, b) => byNumber(a.instanceNumber, b.instanceNumber) || a.sopInstanceUid.localeCompare(b.sopInstanceUid));
    result.push({ studyInstanceUid, series, instanceCount: series.reduce((n, s) => n + s.instances.length, 0) });
  }
  return { studies: result, duplicates };
}
