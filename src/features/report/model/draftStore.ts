import type { Draft, DraftOffer } from '../../../../machines/reportModel/draft';
import { fieldsOf, sameFields, type ReportFields } from '../../../../machines/reportModel/fields';
import { registerLogoutTask } from '@/lib/session/moduleState';
import { reportApi } from '../api';
import { cleanReportHtml } from './sanitize';

export type { Draft, DraftOffer };

/**
 * Local drafts of report text (issue "Report workspace": a crash, a closed tab or an expired token loses no
 * words). localStorage rather than IndexedDB: a write is finished when setItem returns, so a tab killed right
 * after a keystroke still has it; IndexedDB's asynchronous commit can be cut off by exactly that crash.
 * A report's text is a few kilobytes; the browser's 5 MB holds hundreds of drafts.
 *
 * Drafts belong to an account (issue "Hardening": a shared reading-room computer). The key names the account id,
 * a read answers only the account that wrote the draft, and at logout the account's drafts whose text the server
 * already holds are removed (`dropSaved`, run by the session before its logout call, while the token still works).
 * A draft the server does not hold, or that could not be checked (no network, a token already expired, a report
 * gone), stays for its own account: it survives the crash or the expired token it exists for, and another account
 * signing in on the same browser is never offered it. The workspace already removes a draft as soon as its text is
 * saved; the logout check catches the rest (the same text saved from another tab or machine, a tab killed between
 * the save's answer and the removal). What is left is unsaved text, kept at most DRAFT_MAX_AGE_MS.
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
/** The start of every key of one account's drafts (the ':' keeps account 1 from matching account 12). */
const accountPrefix = (userId: number) => `${PREFIX}${userId}:`;
/** An id a draft can be tied to: a positive whole number (0 stands for "no account" in the workspace). */
const isAccountId = (id: number) => Number.isSafeInteger(id) && id > 0;

function isDraft(value: unknown): value is Draft {
  const d = value as Draft;
  return typeof d === 'object' && d !== null && d.v === 1 && typeof d.userId === 'number' && typeof d.reportId === 'number'
    && typeof d.updatedAt === 'number' && typeof d.fields === 'object' && d.fields !== null && typeof d.fields.finding === 'string';
}

export interface DraftStore {
  read(userId: number, reportId: number): Draft | null;
  /** False when the browser refused (storage full or disabled) or the draft names no account: the caller tells the user. */
  write(draft: Draft): boolean;
  remove(userId: number, reportId: number): void;
  /** Removes drafts older than `maxAgeMs`; returns how many went. */
  prune(now: number, maxAgeMs?: number): number;
  /** The account's own drafts, never another account's. */
  ofAccount(userId: number): Draft[];
  /**
   * At logout: removes the account's drafts whose text the server already holds. `serverText` answers what the
   * server holds of a report (a failure keeps the draft); `clean` readies a draft's text for the comparison as the
   * server's was readied. Other accounts' drafts are not touched. Returns how many went.
   */
  dropSaved(userId: number, serverText: (reportId: number) => Promise<ServerText>, clean?: (draft: Draft) => Draft): Promise<number>;
}

export function createDraftStore(storage: DraftStorage): DraftStore {
  function read(userId: number, reportId: number): Draft | null {
    if (!isAccountId(userId)) return null;
    try {
      const raw = storage.getItem(draftKey(userId, reportId));
      if (!raw) return null;
      const parsed: unknown = JSON.parse(raw);
      return isDraft(parsed) && parsed.userId === userId && parsed.reportId === reportId ? parsed : null;
    } catch {
      return null;
    }
  }

  function remove(userId: number, reportId: number) {
    try {
      storage.removeItem(draftKey(userId, reportId));
    } catch {
      // Nothing to do: a draft that cannot be removed is offered again and can be discarded then.
    }
  }

  function ofAccount(userId: number): Draft[] {
    if (!isAccountId(userId)) return [];
    const prefix = accountPrefix(userId);
    const reportIds: number[] = [];
    try {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (!key?.startsWith(prefix)) continue;
        const reportId = Number(key.slice(prefix.length));
        if (Number.isSafeInteger(reportId)) reportIds.push(reportId);
      }
    } catch {
      return [];
    }
    return reportIds.sort((a, b) => a - b).map((reportId) => read(userId, reportId)).filter((d): d is Draft => d !== null);
  }

  return {
    read,
    write(draft) {
      // A draft tied to no account could only ever be offered to the wrong one.
      if (!isAccountId(draft.userId)) return false;
      try {
        storage.setItem(draftKey(draft.userId, draft.reportId), JSON.stringify(draft));
        return true;
      } catch {
        return false;
      }
    },
    remove,
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
    ofAccount,
    async dropSaved(userId, serverText, clean = (draft) => draft) {
      let dropped = 0;
      for (const draft of ofAccount(userId)) {
        let server: ServerText;
        try {
          server = await serverText(draft.reportId);
        } catch {
          continue; // not known to be saved: kept
        }
        if (draftOffer(clean(draft), server).kind !== 'same') continue;
        // Typed on meanwhile (another tab of the account): that newer text was not the one checked.
        if (read(userId, draft.reportId)?.updatedAt !== draft.updatedAt) continue;
        remove(userId, draft.reportId);
        dropped++;
      }
      return dropped;
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

/** Report HTML cleaned as the workspace cleans both sides before comparing (useReportWorkspace's `normal`). */
const cleanFields = (fields: ReportFields): ReportFields => ({ ...fields, finding: cleanReportHtml(fields.finding), diagnosis: cleanReportHtml(fields.diagnosis) });

async function savedText(reportId: number): Promise<ServerText> {
  const view = await reportApi.detail(reportId);
  return { version: view.version, savedTime: view.savedTime, fields: cleanFields(fieldsOf(view)) };
}

// The session runs this before its logout call. Registered when the report feature first loads in the page: a page
// that never opened a report keeps any draft left from before a reload until the account's next logout.
registerLogoutTask((accountId) => drafts.dropSaved(accountId, savedText, (draft) => ({ ...draft, fields: cleanFields(draft.fields) })));
