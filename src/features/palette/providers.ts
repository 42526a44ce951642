import { useEffect, useState } from 'react';
import type { Permissions } from '../../../contract/accounts';

/**
 * Search results from features, beside the commands: a feature exports a provider from its index.ts and the app
 * registers it (src/app/paletteSearch.ts), so the palette names no feature. The palette asks every provider once
 * the typed text is long enough, a little after typing stops, and drops an answer that comes after newer text.
 */
export interface PaletteResult {
  /** Unique within its provider. */
  id: string;
  label: string;
  /** A second, quieter line: where the result is. */
  detail?: string;
  /** Runs once the palette has closed. */
  run: () => void;
}

export interface SearchContext {
  signal: AbortSignal;
  /** The session's actions per organisation: a provider asks only where the account may read. */
  permissions: Permissions | null;
}

export interface SearchProvider {
  id: string;
  /** i18n key of the heading its results are listed under. */
  heading: string;
  /** Fewer typed characters (after trimming) ask nothing. */
  minLength: number;
  /** At most this many results are shown. */
  limit: number;
  search: (text: string, context: SearchContext) => Promise<PaletteResult[]>;
}

const providers = new Map<string, SearchProvider>();

/** Adds (or replaces) a provider; the returned function takes it away again. */
export function registerSearchProvider(provider: SearchProvider): () => void {
  providers.set(provider.id, provider);
  return () => {
    if (providers.get(provider.id) === provider) providers.delete(provider.id);
  };
}

export function searchProviders(): SearchProvider[] {
  return [...providers.values()];
}

export interface ProviderResults {
  provider: SearchProvider;
  results: PaletteResult[];
}

/** How long typing must pause before the providers are asked. */
export const PROVIDER_DELAY_MS = 150;

/** The providers' answers for `text`: empty while the text is too short, the last answers while new ones come. */
export function useProviderResults(text: string, permissions: Permissions | null): ProviderResults[] {
  const [answers, setAnswers] = useState<{ text: string; lists: ProviderResults[] }>({ text: '', lists: [] });
  const term = text.trim();
  useEffect(() => {
    const asked = searchProviders().filter((p) => term.length >= p.minLength);
    if (asked.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void Promise.all(asked.map((provider) => provider.search(term, { signal: controller.signal, permissions }).then(
        (results) => ({ provider, results: results.slice(0, provider.limit) }),
        // A provider that fails shows nothing; the commands are still there.
        () => ({ provider, results: [] }),
      ))).then((lists) => {
        if (!controller.signal.aborted) setAnswers({ text: term, lists: lists.filter((l) => l.results.length > 0) });
      });
    }, PROVIDER_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term, permissions]);
  // The last answers stay while newer text is asked (no blinking list), as long as the text is still long enough.
  return answers.lists.filter((l) => term.length >= l.provider.minLength);
}
