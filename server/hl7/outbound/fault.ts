/**
 * HL7_OUT_FAULT: a test-only switch (tests/api/hl7.outbound.crash.test.ts) that makes the process SIGKILL itself at a
 * named point of sending, to prove the outbox survives it: 'claimed' (rows leased, nothing sent yet) or 'acked' (the
 * peer acknowledged, the row not yet marked sent). Read in this one place; unset in every real deployment.
 */
const fault = process.env.HL7_OUT_FAULT?.trim() || null;

export function faultAt(point: 'claimed' | 'acked'): void {
  if (fault === point) process.kill(process.pid, 'SIGKILL');
}
