/** What the app composes from the knowledge base: its palette search (src/app/paletteSearch.ts). */
export { kbSearchProvider } from './search';
