import { appendFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';

/**
 * How a text reaches a mobile phone (verification codes for binding a number and resetting a password). The
 * server picks one in deps (`deps.sms`); without one it uses the local sender below. A real SMS gateway is a
 * second implementation of this interface; none is configured in this build.
 */
export interface SmsSender {
  /** Resolves once the provider has accepted the text; rejects when it has not (the caller answers OperationFailed). */
  send(mobile: string, text: string): Promise<void>;
}

/**
 * The local sender, used only when no SMS provider is configured (`deps.sms` absent): nothing leaves the machine. The
 * text goes to the server log at warn level with its code masked ({@link maskCodes}: a log is read by more people
 * than the account's owner); with SMS_OUTBOX_FILE set (development, e2e) the text is logged whole and one JSON line
 * {mobile, text, at} is appended to that file (the end-to-end tests read their codes there). It never pretends a phone
 * received anything. A configured sender logs no text at all.
 */
export function localSmsSender(log: Pick<FastifyBaseLogger, 'warn'>, outboxFile: string | null | undefined, now: () => Date): SmsSender {
  return {
    async send(mobile, text) {
      log.warn({ sms: { mobile, text: outboxFile ? text : maskCodes(text) } }, 'SMS not sent (no SMS provider configured): logged here instead');
      if (outboxFile) await appendFile(outboxFile, `${JSON.stringify({ mobile, text, at: now().toISOString() })}\n`, 'utf8');
    },
  };
}

/** A text with every run of four or more digits (a verification code) replaced by as many asterisks. */
export function maskCodes(text: string): string {
  return text.replace(/\d{4,}/g, (digits) => '*'.repeat(digits.length));
}
