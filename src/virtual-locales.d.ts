/** One part of a locale file (scripts/localeSplit.ts). */
declare module 'virtual:locales/*' {
  const part: Record<string, unknown>;
  export default part;
}
