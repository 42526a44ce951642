import type { PaletteResult, SearchContext } from '@/features/palette';
import { i18n } from '@/lib/i18n';
import { navigate } from '@/lib/session';
import { folderPath, searchItems } from './model';
import { kbPath } from './paths';
import { loadTree, readableBuckets } from './store';

/** The palette's search over the knowledge base (loaded on the first search: see ./search). */
export async function searchKb(text: string, { permissions }: SearchContext): Promise<PaletteResult[]> {
  const buckets = readableBuckets(permissions);
  const trees = await Promise.all(buckets.map(async (bucketId) => ({ bucketId, items: await loadTree(bucketId).catch(() => []) })));
  return trees.flatMap(({ bucketId, items }) => searchItems(items, text).map((item) => ({
    id: String(item.id),
    label: item.name,
    detail: [i18n.t(`kb.types.${item.type}`), folderPath(items, item.id)].filter(Boolean).join(' · '),
    run: () => navigate(kbPath(bucketId, item.id)),
  })));
}
