import { signedIn, type MatrixRow } from './types';

/** global-configs/query (contract/globalConfigs.ts): any signed-in account reads the whitelisted keys. */
export const rows: MatrixRow[] = [
  { method: 'GET', route: '/global-configs/query', path: () => '/global-configs/query?keys=supportPhone,helpUrl', expect: signedIn(200) },
];
