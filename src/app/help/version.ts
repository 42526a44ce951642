/** Set by vite.config.ts's `define` from package.json at build time; absent under Vitest. */
declare const __APP_VERSION__: string | undefined;

/** The product's version as built (core §2 navbar help), or 'dev' where nothing defined it. */
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';
