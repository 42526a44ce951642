/** Business constants and limits (core §9, areas §9). One place; server and client import them. */
export const API_PREFIX = '/api/v1/';
export const REQUEST_TIMEOUT_MS = 15_000;
export const REPORT_VIEW_TIMEOUT_MS = 30_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const EXAM_PAGE_SIZE = 20;
export const DEFAULT_QUERY_LIMIT = 50;
export const MAX_QUERY_LIMIT = 500;

export const CONSULTATION_POLL_MS = 60_000;
export const EXAM_POLL_MS = 30_000;
export const POLL_PAGE_SIZE = 5;
export const NEW_EXAM_WINDOW_DAYS = 7;

export const TOAST_MS = 10_000;
export const TOAST_MAX = 3;
export const TOAST_WIDTH = 400;
export const RELOGIN_TOAST_MS = 3_000;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;
export const REPORT_NOTE_MAX = 256;
/** Stored HTML per field; far above any real report, low enough that a paste of junk is a 400, not a slow write. */
export const REPORT_HTML_MAX = 200_000;
export const KEY_IMAGES_MAX = 6;
export const KEY_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const EXAM_EXPORT_MAX = 3000;
export const ORDER_EXPORT_MAX = 1000;
export const PAST_EXAMS_MAX = 15;
export const DELETED_RECOVERY_DAYS = 30;
export const REPACK_INTERVAL_MS = 60 * 60 * 1000;
export const FREE_TEXT_MIN_CHARS = 3;
export const QR_TEXT_MAX = 10;
export const PERMISSION_ACTION_TYPE = 1;

export const LANGUAGES = ['chs', 'en', 'tib'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'chs';

/** Browser storage keys (core §3, §9). */
export const STORAGE_KEYS = {
  accessToken: 'user-access-token',
  /** Unix seconds; kept so a reload can tell a dead token before asking the server. */
  accessTokenExpires: 'user-access-token-expires',
  loginType: 'loginType',
  chargeAccessToken: 'charge-access-token',
  language: 'language',
  theme: 'theme',
  lastExamId: 'notify-last-exam-id',
  lastConsultationId: 'notify-last-consultation-id',
} as const;

export const FILE_SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

export const MODALITIES = ['CR', 'DX', 'CT', 'MR', 'US', 'MG'] as const;
export const PATIENT_SOURCES = ['I', 'O', 'E', 'P', 'NO'] as const;
export const GENDERS = ['M', 'F', 'O', 'U'] as const;
/** Core §3 genders of people and of pets (a pet domain adds MS and FS). */
export const EXAM_GENDERS = ['M', 'F', 'O', 'U', 'MS', 'FS'] as const;
export const AGE_UNITS = ['Y', 'M', 'W', 'D'] as const;

/**
 * Report statuses of an exam still waiting for its report (no submitted or approved one yet): the worklist's
 * "unreported" filter and the new-exam toast's pending count. The strings are contract/reports.ts ReportStatus.
 */
export const UNREPORTED_STATUSES = ['none', 'partial', 'locked', 'advised', 'hold', 'cancelled'] as const;
