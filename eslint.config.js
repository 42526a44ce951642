import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

/**
 * Imports run one way (docs/architecture.md "Layers"): app → features → lib, ui → contract, machines.
 * A feature reaches another only through its index.ts; shared code never reaches up; nothing runs in a circle.
 */
const features = readdirSync('src/features', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const indexFiles = (name) => [`./${name}/index.ts`, `./${name}/index.tsx`];
const layerZones = [
  { target: './src/lib', from: ['./src/app', './src/features'], message: 'Shared code (lib/) must not import the app or a feature: move the shared piece down, or let app/ compose.' },
  { target: './src/ui', from: ['./src/app', './src/features'], message: 'Shared components (ui/) must not import the app or a feature.' },
  { target: './src/features', from: './src/app', message: 'A feature must not import the app (src/app composes features, not the other way round).' },
  { target: ['./contract', './machines'], from: ['./src', './server'], message: 'contract/ and machines/ are pure and shared by the server and the client.' },
  { target: './src', from: './server', message: 'The client never imports server code.' },
  { target: './server', from: './src', message: 'The server never imports client code.' },
];
const featureZones = features.map((name) => ({
  target: `./src/features/${name}`,
  from: './src/features',
  except: [`./${name}`, ...features.filter((other) => other !== name).flatMap(indexFiles)],
  message: `Another feature is reached only through its index.ts (or composed in src/app).`,
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', '.tmp/**', 'server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error',
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']", message: 'No focused tests.' },
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='skip']", message: 'No skipped tests.' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'contract/**/*.ts', 'machines/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...featureZones] }],
      // Type-only imports make no arrow at run time; a cycle of values does.
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
    },
  },
);
