import { organizationSearchProvider } from '@/features/admin';
import { kbSearchProvider } from '@/features/kb';
import { registerSearchProvider } from '@/features/palette';

/**
 * Composition: features whose records are found from the command palette (src/features/palette/providers.ts). The app
 * joins them here so the palette names no feature.
 */
registerSearchProvider(kbSearchProvider);
registerSearchProvider(organizationSearchProvider);
