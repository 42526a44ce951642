import { z } from 'zod';

/**
 * Global configuration entries (areas §3 "Global config entries: key"; §7 global-configs/query?keys): settings of
 * the whole deployment that the client reads by key. Only the keys listed here can be asked for; each has a kind
 * and a default used while the table holds no row for it.
 */
export const GLOBAL_CONFIG_DEFAULTS = {
  /** The telephone number of the deployment's support desk (the help menu shows it). */
  supportPhone: '',
  /** The support desk's e-mail address. */
  supportEmail: '',
  /** Where the user manual lives (an http(s) address, or '' for none). */
  helpUrl: '',
  /** Whether the learning area (videos) is offered. */
  learningEnabled: true,
  /** The largest sample-graph drawing accepted, in MB (server and client read it). */
  sampleGraphMaxMb: 5,
} as const;

export type GlobalConfigKey = keyof typeof GLOBAL_CONFIG_DEFAULTS;
export const GLOBAL_CONFIG_KEYS = Object.keys(GLOBAL_CONFIG_DEFAULTS) as GlobalConfigKey[];
export type GlobalConfigs = { -readonly [K in GlobalConfigKey]: (typeof GLOBAL_CONFIG_DEFAULTS)[K] extends boolean ? boolean : (typeof GLOBAL_CONFIG_DEFAULTS)[K] extends number ? number : string };

/** What a stored value must be for its key; a row that fails (edited by hand) is answered as the default. */
export const GLOBAL_CONFIG_VALUES: { [K in GlobalConfigKey]: z.ZodType<GlobalConfigs[K]> } = {
  supportPhone: z.string().max(32).regex(/^[0-9+\-() ]*$/),
  supportEmail: z.union([z.literal(''), z.email().max(128)]),
  helpUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(512)]),
  learningEnabled: z.boolean(),
  sampleGraphMaxMb: z.number().int().min(1).max(50),
};

/** `keys=a,b`: one to all of the whitelist's keys, comma-separated, each once. */
export const globalConfigQuery = z.object({
  keys: z.string().max(512).transform((s, ctx) => {
    const keys = s.split(',').map((k) => k.trim());
    const unknown = keys.filter((k) => !(GLOBAL_CONFIG_KEYS as readonly string[]).includes(k));
    if (keys.length === 0 || unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: unknown.length > 0 ? `unknown keys: ${unknown.join(', ').slice(0, 200)}` : 'no keys' });
      return z.NEVER;
    }
    if (new Set(keys).size !== keys.length) {
      ctx.addIssue({ code: 'custom', message: 'a key is named twice' });
      return z.NEVER;
    }
    return keys as GlobalConfigKey[];
  }),
}).strict();

export type GlobalConfigAnswer = Partial<GlobalConfigs>;
