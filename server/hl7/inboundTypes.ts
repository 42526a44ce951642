/** What applying one inbound message did, for its log row. */
export interface Applied {
  registrationId?: number | null;
  patientId?: string | null;
  orderId?: string | null;
  /** A short note for the log (e.g. "3 lines updated"). */
  note?: string;
}
