import { describe, expect, it } from 'vitest';
import { abilities, columnsOf, entriesOf, matches, targetOf, type DeskEntry, type DeskQueue } from '@/features/calling/desk/model';
import { newCalls, type ScreenBoard } from '@/features/calling/screen/model';

const entry = (id: number, state: DeskEntry['state'], number: string, name = '张*明'): DeskEntry => ({
  id, queueKey: 'ct', number, name, exam: 'CT 胸部平扫', state, checkedInAt: null, calledAt: state === 'called' ? '2026-01-01T08:00:00Z' : null, calls: state === 'called' ? 1 : 0,
});

const queue: DeskQueue = {
  key: 'ct', id: 1, name: 'CT', prefix: 'A', room: 'CT室1', modality: 'CT',
  current: entry(1, 'called', 'A001'),
  waiting: [entry(2, 'waiting', 'A002', '李*'), entry(3, 'waiting', 'A003', 'J*** S****')],
  missed: [entry(4, 'passed', 'A004')],
  waitingCount: 2, missedCount: 1,
};

describe('the operator’s queues', () => {
  it('orders a queue as called, waiting, missed', () => {
    expect(entriesOf(queue).map((e) => e.number)).toEqual(['A001', 'A002', 'A003', 'A004']);
    expect(columnsOf([queue])).toEqual([{ key: 'ct', ids: [1, 2, 3, 4] }]);
    expect(columnsOf([queue], (e) => e.state !== 'passed')).toEqual([{ key: 'ct', ids: [1, 2, 3] }]);
  });

  it('finds by number, name or exam', () => {
    expect(matches(queue.waiting[1]!, 'a003')).toBe(true);
    expect(matches(queue.waiting[1]!, 'j***')).toBe(true);
    expect(matches(queue.waiting[1]!, '胸部')).toBe(true);
    expect(matches(queue.waiting[1]!, 'MR')).toBe(false);
    expect(matches(queue.waiting[1]!, '  ')).toBe(true);
  });

  it('acts on the picked patient, else on the called one', () => {
    expect(targetOf(queue, null)?.number).toBe('A001');
    expect(targetOf(queue, 4)?.number).toBe('A004');
    expect(targetOf(queue, 99)?.number).toBe('A001');
    expect(targetOf(undefined, 1)).toBeNull();
    expect(targetOf({ ...queue, current: null }, null)).toBeNull();
  });

  it('offers each action only where the queue’s rules allow it', () => {
    expect(abilities(queue.current)).toEqual({ pass: true, back: false, remove: true, done: true, recall: true });
    expect(abilities(queue.waiting[0]!)).toEqual({ pass: true, back: false, remove: true, done: false, recall: false });
    expect(abilities(queue.missed[0]!)).toEqual({ pass: false, back: true, remove: true, done: false, recall: false });
    expect(abilities(null)).toEqual({ pass: false, back: false, remove: false, done: false, recall: false });
  });
});

describe('calls seen by the waiting-room screen', () => {
  const board = (current: { number: string; stamp: string } | null, privacy = false): ScreenBoard => ({
    title: '医院', language: 'chs', privacy,
    queues: [
      { key: 'ct', name: 'CT', room: 'CT室1', next: [], current: current && { ...current, name: '张*明' } },
      { key: 'us', name: '超声', room: null, next: ['B002'], current: null },
    ],
  });

  it('announces nothing for the state a connect brings', () => {
    expect(newCalls(null, board({ number: 'A001', stamp: '1' }))).toEqual([]);
  });

  it('announces a new called patient and a call again, never an unchanged one', () => {
    expect(newCalls(board(null), board({ number: 'A001', stamp: '1' }))).toEqual([{ queue: 'ct', number: 'A001', room: 'CT室1', name: '张*明', stamp: '1' }]);
    expect(newCalls(board({ number: 'A001', stamp: '1' }), board({ number: 'A001', stamp: '2' }))).toHaveLength(1);
    expect(newCalls(board({ number: 'A001', stamp: '1' }), board({ number: 'A001', stamp: '1' }))).toEqual([]);
    expect(newCalls(board({ number: 'A001', stamp: '1' }), board(null))).toEqual([]);
  });

  it('drops the name under privacy-safe calls', () => {
    expect(newCalls(board(null, true), board({ number: 'A001', stamp: '1' }, true))[0]?.name).toBeNull();
  });
});
