import { expect } from 'vitest';

/** A refusal: its HTTP status (the body shown when it differs) and its catalogue code. */
export function expectCode(res: { status: number; body: { code?: string } }, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
}
