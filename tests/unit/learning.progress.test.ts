import { describe, expect, it } from 'vitest';
import type { LearningProgress } from '../../contract/learning';
import { formatDuration, resumePosition, SaveSchedule, watchedFraction } from '../../src/features/learning/progress';
import { createHttp } from '../../src/lib/http';

const at = (positionSec: number, completed = false): LearningProgress => ({ learningId: 1, positionSec, completed, updated: '2026-11-26T00:00:00.000Z' });

describe('learning progress rules', () => {
  it('resumes at the saved position, from the start when never opened or watched to the end', () => {
    expect(resumePosition(null, 20)).toBe(0);
    expect(resumePosition(at(0), 20)).toBe(0);
    expect(resumePosition(at(7.5), 20)).toBe(7.5);
    expect(resumePosition(at(18.9), 20)).toBe(18.9);
    expect(resumePosition(at(19.2), 20)).toBe(0);
    expect(resumePosition(at(20, true), 20)).toBe(0);
    expect(resumePosition(at(6, true), 20)).toBe(6);
  });

  it('says how much is watched; a completed video counts whole', () => {
    expect(watchedFraction(null, 20)).toBe(0);
    expect(watchedFraction(at(5), 20)).toBe(0.25);
    expect(watchedFraction(at(25), 20)).toBe(1);
    expect(watchedFraction(at(2, true), 20)).toBe(1);
    expect(watchedFraction(at(2), 0)).toBe(0);
  });

  it('formats lengths as m:ss and h:mm:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(20.9)).toBe('0:20');
    expect(formatDuration(125)).toBe('2:05');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(-3)).toBe('0:00');
  });

  it('is due after 10 s of play, counting neither seeks nor time before a save', () => {
    const s = new SaveSchedule(10);
    s.moved(0);
    const due: number[] = [];
    for (let t = 0.25; t <= 12; t += 0.25) if (s.tick(t)) { due.push(t); s.saved(); }
    expect(due).toEqual([10]);
    // A seek forward by 30 s is not 30 s of play.
    expect(s.tick(42)).toBe(false);
    for (let t = 42.25; t < 49.9; t += 0.25) expect(s.tick(t)).toBe(false);
    // Seeking back and playing on: only the played time counts.
    s.moved(5);
    let fired = false;
    for (let t = 5.25; t <= 8; t += 0.25) fired ||= s.tick(t);
    expect(fired).toBe(true);
  });
});

describe('the last write on leaving', () => {
  it('goes out with keepalive and the bearer token when asked, and only then', async () => {
    const sent: RequestInit[] = [];
    const store = new Map<string, string>();
    const http = createHttp({
      fetch: (async (_url: RequestInfo | URL, init?: RequestInit) => { sent.push(init ?? {}); return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }); }) as typeof fetch,
      storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v), removeItem: (k) => void store.delete(k) },
    });
    http.tokens.write({ accessToken: 'tok', expires: Math.floor(Date.now() / 1000) + 3600, loginType: 'normal' });
    await http.put('learnings/1/progress', { positionSec: 3, completed: false }, { keepalive: true });
    await http.put('learnings/1/progress', { positionSec: 4, completed: false });
    expect(sent.map((s) => s.keepalive ?? false)).toEqual([true, false]);
    expect(new Headers(sent[0]!.headers).get('authorization')).toBe('Bearer tok');
  });
});
