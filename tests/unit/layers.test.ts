import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The one-way imports of docs/architecture.md "Layers", as the lint enforces them: code written at a real place of
 * the tree is linted as if it were there. If someone loosens eslint.config.js, these fail.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first lint loads every plugin and the type-aware parser: seconds on a busy 2-core machine, so no 5 s limit.
describe('import layers', { timeout: 60_000 }, () => {
  it('refuses shared code that imports a feature or the app', async () => {
    expect(await problems('src/lib/probe.ts', "import { PageCache } from '@/features/worklist/pageCache';\nexport const x = PageCache;\n"))
      .toContain('import-x/no-restricted-paths');
    expect(await problems('src/ui/probe.tsx', "import { routes } from '@/app/routes';\nexport const x = routes;\n"))
      .toContain('import-x/no-restricted-paths');
  });

  it('refuses a feature that imports the app or reaches past another feature\'s index.ts', async () => {
    expect(await problems('src/features/upload/probe.ts', "import { routes } from '@/app/routes';\nexport const x = routes;\n"))
      .toContain('import-x/no-restricted-paths');
    expect(await problems('src/features/upload/probe.ts', "import { isReported } from '@/features/worklist/types';\nexport const x = isReported;\n"))
      .toContain('import-x/no-restricted-paths');
  });

  it('lets a feature use shared code and another feature\'s index.ts', async () => {
    expect(await problems('src/features/share/probe.ts', "import { ReportHtml } from '@/features/report';\nimport { http } from '@/lib/http';\nexport const x = [ReportHtml, http];\n"))
      .toEqual([]);
  });

  it('refuses contract/ and machines/ importing the client or the server, and the two sides importing each other', async () => {
    expect(await problems('machines/probe.ts', "import { http } from '../src/lib/http';\nexport const x = http;\n")).toContain('import-x/no-restricted-paths');
    expect(await problems('server/probe.ts', "import { http } from '../src/lib/http';\nexport const x = http;\n")).toContain('import-x/no-restricted-paths');
    expect(await problems('src/lib/probe.ts', "import { buildApp } from '../../server/app';\nexport const x = buildApp;\n")).toContain('import-x/no-restricted-paths');
  });

  it('refuses an import that closes a circle', async () => {
    // session/index → instance → … ; a module of lib/session importing the index it is exported from runs in a circle.
    expect(await problems('src/lib/session/useSession.ts', "import { sessionActor } from '.';\nexport const x = sessionActor;\n"))
      .toContain('import-x/no-cycle');
  });
});
