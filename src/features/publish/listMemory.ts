import { registerModuleReset } from '@/lib/session';

/** The list the user last looked at (organisation and page), so the detail page's "back" returns to it. */
let lastList: { bucketId: number; path: string } | null = null;
registerModuleReset(() => {
  lastList = null;
});
export const rememberList = (bucketId: number, path: string) => {
  lastList = { bucketId, path };
};
/** The remembered list of that organisation, if the user came from there. */
export const rememberedList = (bucketId: number) => (lastList?.bucketId === bucketId ? lastList.path : null);
