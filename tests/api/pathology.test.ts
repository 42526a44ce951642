import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

/** Core §3 Group.pathologyUrl: the server keeps only http(s) templates with the known placeholders. */
let s: TestServer;
let admin: string;
let groupId: number;
beforeAll(async () => {
  s = await startServer({ exams: 1 });
  admin = await s.login('admin');
  groupId = (await s.request('GET', 'groups/mine', { token: admin })).body[0].id;
});
afterAll(async () => { await s.close(); });

describe('PATCH groups/{id} pathologyUrl', () => {
  it('refuses a non-http(s) address or an unknown placeholder with ParamsError, keeping the stored one', async () => {
    await s.request('PATCH', `groups/${groupId}`, { token: admin, body: { pathologyUrl: 'https://lis.local/' } });
    for (const bad of ['javascript:alert(1)', 'ftp://lis.local/', 'not a url', 'https://lis.local/?n={patientName}']) {
      const res = await s.request('PATCH', `groups/${groupId}`, { token: admin, body: { pathologyUrl: bad } });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'ParamsError']);
    }
    const [mine] = (await s.request('GET', 'groups/mine', { token: admin })).body;
    expect(mine.pathologyUrl).toBe('https://lis.local/');
  });

  it('stores a template with placeholders for groups/mine, and clears it with an empty string', async () => {
    const template = 'https://lis.local/case?acc={accessionNumber}&pid={patientId}&exam={examId}';
    expect((await s.request('PATCH', `groups/${groupId}`, { token: admin, body: { pathologyUrl: template } })).status).toBe(200);
    expect((await s.request('GET', 'groups/mine', { token: admin })).body[0].pathologyUrl).toBe(template);
    expect((await s.request('PATCH', `groups/${groupId}`, { token: admin, body: { pathologyUrl: '' } })).body.pathologyUrl).toBeNull();
  });
});
