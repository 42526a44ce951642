import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import type { Permissions, User } from '../../contract/accounts';
import { STORAGE_KEYS } from '../../contract/constants';
import type { ReportView } from '../../contract/reports';
import { createDraftStore, type Draft, type DraftStorage } from '@/features/report/model/draftStore';
import { createHttp } from '@/lib/http';
import { createSession } from '@/lib/session/controller';
import { registerLogoutTask, runLogoutTasks } from '@/lib/session/moduleState';
import { fieldsOf } from '../../machines/reportModel/fields';
import { reportView } from './reportWorkspace.fixtures';

/**
 * The logout path with drafts (issue "Hardening"): the session runs the logout tasks with the account's id before
 * its logout call, while the token still works, so the report feature can ask the server which drafts it holds.
 */

const NOW = 1_900_000_000;
const user: User = {
  id: 2, username: 'rad1', name: '李明', fullName: '李明', avatar: null, signature: null, mobile: null,
  techTitle: '主治医师', registry: null, canCreateGroup: false, domainName: {},
};
const permissions: Permissions = { '1': { type: 1, actions: ['exam_get', 'report_upsert'] } };

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function memoryStorage(): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

/** A signed-in session against a scripted server that ends the token at logout, as the real one does. */
async function signedIn(reports: Record<number, ReportView>) {
  const tokens = new Map<string, string>([
    [STORAGE_KEYS.accessToken, 'tok'], [STORAGE_KEYS.accessTokenExpires, String(NOW + 3600)], [STORAGE_KEYS.loginType, 'normal'],
  ]);
  const calls: string[] = [];
  let loggedOut = false;
  const http = createHttp({
    fetch: (async (url: string, init: RequestInit) => {
      const path = `${init.method ?? 'GET'} ${url.replace('/api/v1/', '')}`;
      calls.push(path);
      if (loggedOut) return json(401, { code: 'JsonWebTokenError', message: 'ended' });
      if (path === 'GET accounts/me') return json(200, user);
      if (path === 'GET accounts/me/permissions') return json(200, permissions);
      if (path === 'GET groups/mine') return json(200, []);
      if (path === 'POST accounts/logout') {
        loggedOut = true;
        return new Response(null, { status: 204 });
      }
      const report = /^GET reports\/(\d+)\/detail$/.exec(path);
      if (report && reports[Number(report[1])]) return json(200, reports[Number(report[1])]);
      return json(404, { code: 'NotFound', message: 'not found' });
    }) as typeof fetch,
    storage: { getItem: (k) => tokens.get(k) ?? null, setItem: (k, v) => void tokens.set(k, v), removeItem: (k) => void tokens.delete(k) },
  });
  const actor = createSession({
    http, onSessionEnded: () => () => undefined, notify: () => undefined, navigate: () => undefined,
    currentPath: () => '/worklist', nowSeconds: () => NOW, resetModules: () => undefined,
    beforeLogout: (accountId) => runLogoutTasks(accountId),
  });
  actor.start();
  await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'ready' }));
  return { actor, http, calls };
}

const unregister: (() => void)[] = [];
afterEach(() => unregister.splice(0).forEach((off) => off()));

const saved = reportView({ id: 7, version: 3 });
const draftOf = (over: Partial<Draft>): Draft => ({
  v: 1, userId: 2, reportId: 7, baseVersion: 3, baseSavedTime: saved.savedTime, updatedAt: Date.now(), fields: fieldsOf(saved), ...over,
});

describe('logout with drafts', () => {
  it('asks the server about the account’s drafts before the logout call, drops the saved ones and keeps the rest', async () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage);
    store.write(draftOf({ reportId: 7 })); // the server holds this text
    store.write(draftOf({ reportId: 8, fields: { ...fieldsOf(saved), finding: '<p>未保存的描述</p>' } }));
    store.write(draftOf({ reportId: 9 })); // a report the server no longer shows this account
    store.write(draftOf({ userId: 5, reportId: 7 })); // another account's, on the same browser
    const { actor, http, calls } = await signedIn({ 7: saved, 8: reportView({ id: 8, version: 3 }) });
    unregister.push(registerLogoutTask((accountId) => store.dropSaved(accountId, async (id) => {
      const view = await http.get<ReportView>(`reports/${id}/detail`);
      return { version: view.version, savedTime: view.savedTime, fields: fieldsOf(view) };
    })));

    actor.send({ type: 'LOGOUT' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedOut'));

    expect(calls.filter((call) => /reports|logout/.test(call))).toEqual(['GET reports/7/detail', 'GET reports/8/detail', 'GET reports/9/detail', 'POST accounts/logout']);
    expect(store.read(2, 7), 'saved on the server: gone').toBeNull();
    expect(store.read(2, 8)?.fields.finding, 'unsaved: kept for its account').toBe('<p>未保存的描述</p>');
    expect(store.read(2, 9), 'not known to be saved: kept').not.toBeNull();
    expect(store.read(5, 7), "another account's: untouched").not.toBeNull();
    // The next account on this browser is offered none of them.
    expect(store.ofAccount(6)).toEqual([]);
  });

  it('still logs out when a task fails or hangs', async () => {
    const { actor, calls } = await signedIn({});
    unregister.push(registerLogoutTask(() => Promise.reject(new Error('broken'))));
    actor.send({ type: 'LOGOUT' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedOut'));
    expect(calls.at(-1)).toBe('POST accounts/logout');

    let ran = 0;
    unregister.push(registerLogoutTask(() => {
      ran++;
      return new Promise(() => undefined);
    }));
    const started = Date.now();
    await runLogoutTasks(2, 30);
    expect(ran).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('runs no task without an account', async () => {
    let ran = 0;
    unregister.push(registerLogoutTask(() => void ran++));
    await runLogoutTasks(null);
    expect(ran).toBe(0);
    await runLogoutTasks(4);
    expect(ran).toBe(1);
  });
});
