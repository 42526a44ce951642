import { describe, expect, it } from 'vitest';
import chs from '../../locales/chs.json';
import en from '../../locales/en.json';
import tib from '../../locales/tib.json';
import { CORE_KEYS, CORE_NAMESPACES, localePart } from '../../src/lib/localeParts';
import chsCore from 'virtual:locales/chs/core';
import chsRest from 'virtual:locales/chs/rest';
import { allTextsLoaded, i18n, initI18n, loadAllTexts } from '../../src/lib/i18n';

describe('locale parts (the /login budget)', () => {
  it('splits every language into the first-paint namespaces and the rest, losing nothing', () => {
    for (const document of [chs, en, tib] as Record<string, unknown>[]) {
      const core = localePart(document, 'core');
      const rest = localePart(document, 'rest');
      expect(Object.keys(core).sort()).toEqual([...CORE_NAMESPACES].sort());
      // A namespace split by key is in both parts, each key in exactly one.
      const merged: Record<string, unknown> = { ...rest };
      for (const [namespace, texts] of Object.entries(core)) {
        merged[namespace] = namespace in rest ? { ...(texts as object), ...(rest[namespace] as object) } : texts;
        if (namespace in rest) expect(Object.keys(texts as object).some((k) => k in (rest[namespace] as object))).toBe(false);
      }
      expect(merged).toEqual(document);
      expect(Object.keys(core).filter((k) => k in rest).sort()).toEqual(Object.keys(CORE_KEYS).sort());
    }
  });

  it('serves the parts as modules through the build plugin', () => {
    expect(chsCore).toEqual(localePart(chs, 'core'));
    expect(chsRest).toEqual(localePart(chs, 'rest'));
    expect(Object.keys(chsRest)).toContain('worklist');
  });

  it('starts with the first-paint texts only and has the features’ texts once asked for', async () => {
    await initI18n('chs');
    expect(i18n.t('auth.login.title' as never)).toBe(chs.auth.login.title);
    expect(allTextsLoaded()).toBe(false);
    expect(i18n.exists('worklist.title' as never)).toBe(false);
    // The sign-in's errors are there, a feature's error only with the rest.
    expect(i18n.exists('errors.InvalidCredentials' as never)).toBe(true);
    expect(i18n.exists('errors.QueueEmpty' as never)).toBe(false);
    expect(i18n.exists('auth.register.title' as never)).toBe(false);
    expect(await loadAllTexts()).toBe(true);
    expect(allTextsLoaded()).toBe(true);
    expect(i18n.t('worklist.title' as never)).toBe(chs.worklist.title);
    expect(i18n.t('errors.QueueEmpty' as never)).toBe(chs.errors.QueueEmpty);
    expect(i18n.t('errors.InvalidCredentials' as never)).toBe(chs.errors.InvalidCredentials);
  });
});
