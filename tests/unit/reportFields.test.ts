import { describe, expect, it } from 'vitest';
import { fieldProblems, fieldsOf, hasText, noteLength, payloadOf, sameFields } from '../../machines/reportModel/fields';
import { reportView } from './reportWorkspace.fixtures';

const base = fieldsOf(reportView());

describe('report fields before an action', () => {
  it('finds no text in empty markup, spaces, full-width spaces or non-breaking spaces', () => {
    expect(hasText('')).toBe(false);
    expect(hasText('<p></p><p><br></p>')).toBe(false);
    expect(hasText('<p>\u3000 &nbsp;</p>')).toBe(false);
    expect(hasText('<p>未见异常</p>')).toBe(true);
    expect(hasText('<p>&lt;5mm</p>')).toBe(true);
  });

  it('refuses submit and approve when findings and conclusion are both empty, but lets a draft save', () => {
    const empty = { ...base, finding: '<p></p>', diagnosis: '' };
    expect(fieldProblems(empty, 'submit')).toEqual(['reportEmpty']);
    expect(fieldProblems(empty, 'approve')).toEqual(['reportEmpty']);
    expect(fieldProblems(empty, 'save')).toEqual([]);
    expect(fieldProblems({ ...empty, diagnosis: '<p>结论</p>' }, 'submit')).toEqual([]);
  });

  it('holds the note to 256 characters counted as the server counts them', () => {
    expect(fieldProblems({ ...base, note: '注'.repeat(256) }, 'save')).toEqual([]);
    expect(fieldProblems({ ...base, note: '注'.repeat(257) }, 'save')).toEqual(['noteTooLong']);
    expect(noteLength('😀')).toBe(2);
  });

  it('needs a whole body part count from 1', () => {
    expect(fieldProblems({ ...base, bodypartCount: 0 }, 'save')).toEqual(['bodypartCount']);
    expect(fieldProblems({ ...base, bodypartCount: 1.5 }, 'save')).toEqual(['bodypartCount']);
    expect(fieldProblems({ ...base, bodypartCount: Number.NaN }, 'save')).toEqual(['bodypartCount']);
    expect(fieldProblems({ ...base, bodypartCount: 3 }, 'save')).toEqual([]);
  });

  it('needs a name for every extension field', () => {
    expect(fieldProblems({ ...base, extensions: { ' ': 'x' } }, 'save')).toEqual(['extensionKey']);
  });
});

describe('what is sent and what counts as changed', () => {
  it('sends an empty note or critical value as absent (null), and an untouched empty editor as empty text', () => {
    const payload = payloadOf({ ...base, finding: '<p></p>', note: '  ', criticalValue: ' 血钾 6.8 ' });
    expect(payload).toMatchObject({ finding: '', note: null, criticalValue: '血钾 6.8' });
  });

  it('treats text that differs only by surrounding spaces as the same, any other change as a change', () => {
    expect(sameFields(base, { ...base, note: `${base.note} ` })).toBe(true);
    expect(sameFields(base, { ...base, positive: null })).toBe(false);
    expect(sameFields(base, { ...base, extensions: { 部位: '左' } })).toBe(false);
    expect(sameFields({ ...base, extensions: { a: 1 } }, { ...base, extensions: { a: 1 } })).toBe(true);
  });

  it('keeps extension values another system wrote as objects, as text', () => {
    expect(fieldsOf(reportView({ extensions: { device: { model: 'X' }, n: 2, ok: true } })).extensions).toEqual({ device: '{"model":"X"}', n: 2, ok: true });
  });
});
