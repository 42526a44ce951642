import { describe, expect, it } from 'vitest';
import type { Group } from '../../contract/domain';
import { pathologyTemplateProblem, pathologyUrlFor, pathologyUrlInput } from '../../contract/pathology';
import { pathologyAddress } from '@/features/pathology/open';

const group = (id: number, pathologyUrl: string | null) => ({ id, pathologyUrl }) as Group;
const exam = { id: 42, accessionNumber: 'A 1/2', patientId: 'P&9', orderId: null };

describe('the pathology URL template', () => {
  it('fills the exam’s identifiers URL-encoded and leaves a missing one empty', () => {
    expect(pathologyUrlFor('https://lis.local/c?acc={accessionNumber}&pid={patientId}&e={examId}&o={orderId}', { examId: 42, accessionNumber: 'A 1/2', patientId: 'P&9', orderId: null }))
      .toBe('https://lis.local/c?acc=A%201%2F2&pid=P%269&e=42&o=');
    expect(pathologyUrlFor('https://lis.local/{examId}')).toBe('https://lis.local/');
  });

  it('accepts http(s) addresses with known placeholders and refuses the rest', () => {
    expect(pathologyTemplateProblem('https://lis.local/c?acc={accessionNumber}')).toBeNull();
    expect(pathologyTemplateProblem('http://10.0.0.5:8080/')).toBeNull();
    for (const bad of ['javascript:alert(1)', 'ftp://lis.local/', 'lis.local/c', '/relative', 'https://lis.local/{patientName}', 'data:text/html,x']) {
      expect([bad, pathologyTemplateProblem(bad)]).not.toEqual([bad, null]);
    }
    expect(pathologyUrlInput.safeParse('javascript:alert(1)').success).toBe(false);
    expect(pathologyUrlInput.parse('')).toBeNull();
    expect(pathologyUrlInput.parse(null)).toBeNull();
  });

  it('uses the exam’s own group’s template, else the first group that has one, else none', () => {
    const groups = [group(1, null), group(2, 'https://two.local/{examId}'), group(3, 'https://three.local/?a={accessionNumber}')];
    expect(pathologyAddress(groups, 3, exam)).toBe('https://three.local/?a=A%201%2F2');
    expect(pathologyAddress(groups, 1, exam)).toBe('https://two.local/42');
    expect(pathologyAddress([group(1, null)], 1, exam)).toBeNull();
  });
});
