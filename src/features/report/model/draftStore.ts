import type { Draft, DraftOffer } from '../../../../machines/reportModel/draft';
import { sameFields, type ReportFields } from '../../../../machines/reportModel/fields';

export type { Draft, DraftOffer };

/**
 * Local drafts of report text (issue "Report workspace": a crash, a closed tab or an expired token loses no
 * words). localStorage rather than IndexedDB: a write is finished when setItem returns, so a tab killed right
 * after a keystroke still has it; IndexedDB's asynchronous commit can be cut off by exactly that crash.
 * A report's text is a few kilobytes; the browser's 5 MB holds hundreds of drafts.
 */

/** Storage as drafts need it; tests pass a Map-backed fake. */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}


const PREFIX = 'report-draft:';
/** Drafts no one came back to in two weeks are dropped: they hold patient text on a shared workstation. */
export const DRAFT_MAX_AGE_MS = 14 * 24 * 3600 * 1000;

export const draftKey = (userId: number, reportId: number) => `${PREFIX}${userId}:${reportId}`;

function isDraft(value: unknown): value is Draft {
  const d = value as Draft;
  return typeof d === 'object' && d !== null && d.v === 1 && typeof d.userId === 'number' && typeof d.reportId === 'number'
    && typeof d.updatedAt === 'number' && typeof d.fields === 'object' && d.fields !== null && typeof d.fields.finding === 'string';
}

export interface DraftStore {
  read(userId: number, reportId: number): Draft | null;
  /** False when the browser refused (storage full or disabled): the caller tells the user. */
  write(draft: Draft): boolean;
  remove(userId: number, reportId: number): void;
  /** Removes drafts older than `maxAgeMs`; returns how many went. */
  prune(now: number, maxAgeMs?: number): number;
}

export function createDraftStore(storage: DraftStorage): DraftStore {
  return {
    read(userId, reportId) {
      try {
        const raw = storage.getItem(draftKey(userId, reportId));
        if (!raw) return null;
        const parsed: unknown = JSON.parse(raw);
        return isDraft(parsed) && parsed.userId === userId && parsed.reportId === reportId ? parsed : null;
      } catch {
        return null;
      }
    },
    write(draft) {
      try {
        storage.setItem(draftKey(draft.userId, draft.reportId), JSON.stringify(draft));
        return true;
      } catch {
        return false;
      }
    },
    remove(userId, reportId) {
      try {
        storage.removeItem(draftKey(userId, reportId));
      } catch {
        // Nothing to do: a draft that cannot be removed is offered again and can be discarded then.
      }
    },
    prune(now, maxAgeMs = DRAFT_MAX_AGE_MS) {
      const stale: string[] = [];
      try {
        for (let i = 0; i < storage.length; i++) {
          const key = storage.key(i);
          if (!key?.startsWith(PREFIX)) continue;
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(storage.getItem(key) ?? 'null');
          } catch {
            // unreadable: stale
          }
          if (!isDraft(parsed) || now - parsed.updatedAt > maxAgeMs) stale.push(key);
        }
        stale.forEach((key) => storage.removeItem(key));
      } catch {
        return 0;
      }
      return stale.length;
    },
  };
}

/** What the server holds of a report, for comparing with a draft. */
export interface ServerText {
  version: number;
  savedTime: string | null;
  fields: ReportFields;
}


export function draftOffer(draft: Draft | null, server: ServerText): DraftOffer {
  if (!draft) return { kind: 'none' };
  if (sameFields(draft.fields, server.fields)) return { kind: 'same' };
  if (server.version <= draft.baseVersion || server.savedTime === draft.baseSavedTime) return { kind: 'newer', draft };
  const savedAt = server.savedTime ? Date.parse(server.savedTime) : 0;
  return { kind: draft.updatedAt >= savedAt ? 'newer' : 'older', draft };
}

function browserStorage(): DraftStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const memory = new Map<string, string>();
/** Without Web Storage (a locked-down browser) drafts live as long as the page: better than nothing. */
const memoryStorage: DraftStorage = {
  getItem: (k) => memory.get(k) ?? null,
  setItem: (k, v) => void memory.set(k, v),
  removeItem: (k) => void memory.delete(k),
  key: (i) => [...memory.keys()][i] ?? null,
  get length() {
    return memory.size;
  },
};

export const drafts: DraftStore = createDraftStore(browserStorage() ?? memoryStorage);
