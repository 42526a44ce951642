import type { TFunction } from 'i18next';

/** A category's name in the reader's language: the demo's keys have one (learning.categories.<key>); others show as stored. */
export function categoryLabel(t: TFunction, category: string): string {
  return t(`learning.categories.${category}`, { defaultValue: category }) as string;
}
