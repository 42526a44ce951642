import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { localePart, type LocalePart } from '../src/lib/localeParts';

/**
 * `import core from 'virtual:locales/chs/core'` (or `/rest`): one part of locales/<language>.json as a module
 * (src/lib/localeParts.ts says which namespaces are in which part). Vite and Vitest both use it.
 */
const PREFIX = 'virtual:locales/';

export function localeSplit(root: string): Plugin {
  return {
    name: 'locale-split',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const [language, part] = id.slice(PREFIX.length + 1).split('/') as [string, LocalePart];
      if (!/^[a-z]+$/.test(language) || (part !== 'core' && part !== 'rest')) throw new Error(`unknown locale module ${id}`);
      const file = path.join(root, 'locales', `${language}.json`);
      this.addWatchFile(file);
      const document = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(localePart(document, part))};`;
    },
  };
}
