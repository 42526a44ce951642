import type { SearchProvider } from '@/features/palette';
import { i18n } from '@/lib/i18n';
import { navigate } from '@/lib/session';
import { folderPath, searchItems } from './model';
import { kbPath } from './paths';
import { loadTree, readableBuckets } from './store';

/**
 * Knowledge-base items in the command palette: every organisation the account may read is searched by item name and
 * text; choosing one opens /kb at that item.
 */
export const kbSearchProvider: SearchProvider = {
  id: 'kb',
  heading: 'kb.palette.heading',
  minLength: 1,
  limit: 8,
  async search(text, { permissions }) {
    const buckets = readableBuckets(permissions);
    const trees = await Promise.all(buckets.map(async (bucketId) => ({ bucketId, items: await loadTree(bucketId).catch(() => []) })));
    return trees.flatMap(({ bucketId, items }) => searchItems(items, text).map((item) => ({
      id: String(item.id),
      label: item.name,
      detail: [i18n.t(`kb.types.${item.type}`), folderPath(items, item.id)].filter(Boolean).join(' · '),
      run: () => navigate(kbPath(bucketId, item.id)),
    })));
  },
};
