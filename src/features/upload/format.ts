export const percent = (fraction: number) => `${Math.floor(Math.min(1, Math.max(0, fraction)) * 100)}%`;
