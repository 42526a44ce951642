/** The look every administration table shares (group and organisation screens): one place to change it. */
export const TABLE = 'w-full border-collapse rounded-md border border-line bg-surface text-[13px]';
export const HEAD_ROW = 'border-b border-line text-left text-xs text-fg-muted';
export const TH = 'px-3 py-2 font-medium';
export const ROW = 'border-b border-line/60 last:border-0';
export const TD = 'px-3 py-1.5';
