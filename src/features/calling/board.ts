/**
 * The operator screen's hand (pure): which queue is active and which patient is picked in each. Queues are columns
 * of entry ids in screen order (the called patient, the waiting list, the missed area); the picked id survives
 * refreshes as long as the patient is still in its column, and nothing picked means "the called patient".
 */
export interface Column {
  key: string;
  ids: readonly number[];
}

export interface Hand {
  /** The active column's key; null before the first columns arrive. */
  queue: string | null;
  picked: Readonly<Record<string, number | null>>;
}

export type HandEvent =
  | { type: 'move'; step: 1 | -1 }
  | { type: 'switch'; step: 1 | -1 }
  | { type: 'go'; index: number }
  | { type: 'pick'; queue: string; id: number | null }
  | { type: 'drop' };

export const emptyHand: Hand = { queue: null, picked: {} };

/** The active column's index (the first when the remembered one is gone), or -1 without columns. */
export function activeIndex(columns: readonly Column[], hand: Hand): number {
  if (columns.length === 0) return -1;
  const index = columns.findIndex((c) => c.key === hand.queue);
  return index < 0 ? 0 : index;
}

/** The picked id of a column if that patient is still in it. */
export function pickedIn(column: Column | undefined, hand: Hand): number | null {
  if (!column) return null;
  const id = hand.picked[column.key] ?? null;
  return id !== null && column.ids.includes(id) ? id : null;
}

export function handReducer(columns: readonly Column[], hand: Hand, event: HandEvent): Hand {
  const index = activeIndex(columns, hand);
  const column = columns[index];
  switch (event.type) {
    case 'switch': {
      if (columns.length === 0) return hand;
      const next = (index + event.step + columns.length) % columns.length;
      return { ...hand, queue: columns[next]!.key };
    }
    case 'go': {
      const target = columns[event.index];
      return target ? { ...hand, queue: target.key } : hand;
    }
    case 'pick':
      return { queue: event.queue, picked: { ...hand.picked, [event.queue]: event.id } };
    case 'drop':
      return column ? { ...hand, picked: { ...hand.picked, [column.key]: null } } : hand;
    case 'move': {
      if (!column || column.ids.length === 0) return column ? { ...hand, queue: column.key } : hand;
      const current = pickedIn(column, hand);
      const at = current === null ? (event.step > 0 ? -1 : column.ids.length) : column.ids.indexOf(current);
      const next = Math.min(column.ids.length - 1, Math.max(0, at + event.step));
      return { queue: column.key, picked: { ...hand.picked, [column.key]: column.ids[next]! } };
    }
  }
}
