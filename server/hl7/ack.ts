import type { Hl7Reason } from '../../contract/hl7';
import type { ApiError } from '../http/errors';
import type { AckCode, AckError } from './message';

/**
 * Why a message was not applied, as the ACK says it: AR (rejected: we cannot or will not take this message at all)
 * or AE (the registry refused it), ERR-3 from HL7 table 0357, ERR-8 "<catalogue code>: <reason>".
 */
export class Hl7Refusal extends Error {
  constructor(
    readonly reason: string,
    readonly ackCode: Exclude<AckCode, 'AA'>,
    readonly hl7Code: string,
    message: string,
    readonly location?: string,
  ) {
    super(message);
  }

  get err(): AckError {
    return { hl7Code: this.hl7Code, message: `${this.reason}: ${this.message}`, location: this.location };
  }
}

export const reject = (reason: Hl7Reason, hl7Code: string, message: string, location?: string) => new Hl7Refusal(reason, 'AR', hl7Code, message, location);
export const appError = (reason: Hl7Reason, hl7Code: string, message: string, location?: string) => new Hl7Refusal(reason, 'AE', hl7Code, message, location);

/** A registry refusal (the desk's catalogue code) as an AE: 204 for what was not found, 207 for every other rule. */
export function fromApiError(err: ApiError): Hl7Refusal {
  const detail = err.details ? ` ${JSON.stringify(err.details)}` : '';
  return new Hl7Refusal(err.code, 'AE', err.code === 'NotFound' ? '204' : '207', `${err.message}${detail}`.slice(0, 400));
}
