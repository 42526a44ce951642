import type { SearchProvider } from '@/features/palette';

/**
 * Knowledge-base items in the command palette: every organisation the account may read is searched by item name and
 * text; choosing one opens /kb at that item. The app registers this at start, so the search itself (the tree store,
 * the contract's schemas) loads only when someone first types in the palette.
 */
export const kbSearchProvider: SearchProvider = {
  id: 'kb',
  heading: 'kb.palette.heading',
  minLength: 1,
  limit: 8,
  search: async (text, context) => (await import('./searchItems')).searchKb(text, context),
};
