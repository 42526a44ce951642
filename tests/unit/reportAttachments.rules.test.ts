import { describe, expect, it } from 'vitest';
import type { Action } from '../../contract/actions';
import { POLICY_LIMITS } from '../../contract/files';
import { UPLOAD_CODE_TTL_HOURS, uploadCodeInput } from '../../contract/uploads';
import { reportCommands, type ReportCommandContext } from '@/features/report/commands';
import { attachmentRights, isFresh, refusals, ttlHours, typeLabel } from '@/features/report/attachments/rules';

/** `can` as the session answers it, for an account holding `actions` in organisation 1 only. */
const holding = (...actions: Action[]) => (action: Action, bucketId: number) => bucketId === 1 && actions.includes(action);

describe('who sees which attachment control', () => {
  it('gives a technician every control, each by its own permission', () => {
    const tech = holding('exam_get', 'exam_upload', 'attachment_create', 'attachment_delete', 'attachment_presigned_url', 'attachment_upload');
    expect(attachmentRights(tech, 1)).toEqual({ list: true, open: true, upload: true, remove: true, createCode: true });
  });

  it('lets a radiologist without attachment actions list the files and nothing more', () => {
    const rad = holding('exam_get', 'report_upsert', 'report_advice', 'report_print', 'report_trace');
    expect(attachmentRights(rad, 1)).toEqual({ list: true, open: false, upload: false, remove: false, createCode: false });
  });

  it('lists for any report action, as the server reads reports', () => {
    expect(attachmentRights(holding('report_approval'), 1).list).toBe(true);
    expect(attachmentRights(holding('registry_create'), 1).list).toBe(false);
  });

  it('keeps each action apart: uploading oneself is not handing out codes, opening is not deleting', () => {
    expect(attachmentRights(holding('exam_get', 'attachment_upload'), 1)).toMatchObject({ upload: true, createCode: false, remove: false, open: false });
    expect(attachmentRights(holding('exam_get', 'attachment_presigned_url'), 1)).toMatchObject({ open: true, remove: false });
  });

  it('asks about the report\'s own organisation, not any other', () => {
    const tech = holding('exam_get', 'attachment_upload', 'attachment_delete');
    expect(attachmentRights(tech, 2)).toEqual({ list: false, open: false, upload: false, remove: false, createCode: false });
  });
});

describe('files checked before sending', () => {
  const limits = { maxBytes: 1000, types: ['application/pdf', 'image/png'], maxCount: null };

  it('passes files within the size whose bytes are an accepted type', () => {
    expect(refusals([{ size: 1000, type: 'image/png' }, { size: 10, type: 'application/pdf' }], limits, 0)).toEqual([null, null]);
  });

  it('refuses a file over the limit and one whose bytes are of another type, and still passes the rest', () => {
    expect(refusals([
      { size: 1001, type: 'image/png' },
      { size: 10, type: 'image/webp' },
      { size: 10, type: null },
      { size: 0, type: null },
      { size: 10, type: 'image/png' },
    ], limits, 0)).toEqual(['UploadTooLarge', 'UnsupportedFileType', 'UnsupportedFileType', 'UnsupportedFileType', null]);
  });

  it('counts the report\'s files against a policy with a maximum, refusing only those beyond it', () => {
    const images = { maxBytes: 1000, types: ['image/png'], maxCount: 6 };
    const four = Array.from({ length: 4 }, () => ({ size: 10, type: 'image/png' as const }));
    expect(refusals(four, images, 4)).toEqual([null, null, 'tooMany', 'tooMany']);
    // A refused file does not use up a place.
    expect(refusals([{ size: 5000, type: 'image/png' as const }, ...four], images, 4)).toEqual(['UploadTooLarge', null, null, 'tooMany', 'tooMany']);
  });

  it('follows the attachments policy the server answers (20 MB of PDF, PNG, JPEG, WebP, no maximum count)', () => {
    const policy = { ...POLICY_LIMITS.attachments, types: [...POLICY_LIMITS.attachments.types] };
    expect(refusals([{ size: 20 * 1024 * 1024, type: 'image/webp' }, { size: 20 * 1024 * 1024 + 1, type: 'application/pdf' }], policy, 500))
      .toEqual([null, 'UploadTooLarge']);
  });
});

describe('the validity of an upload code', () => {
  it('takes whole hours from 1 to 720', () => {
    expect(ttlHours('1')).toBe(1);
    expect(ttlHours(' 72 ')).toBe(72);
    expect(ttlHours('720')).toBe(720);
  });

  it('refuses what the server would refuse', () => {
    for (const text of ['0', '721', '1.5', '-3', '', 'abc', '1e2', '72h']) expect(ttlHours(text)).toBeNull();
  });

  it('has the same bounds and default as the server\'s schema', () => {
    const base = { kind: 'attachment', bucketId: 1, reportId: 2 } as const;
    expect(uploadCodeInput.parse(base).ttlHours).toBe(UPLOAD_CODE_TTL_HOURS.default);
    expect(uploadCodeInput.safeParse({ ...base, ttlHours: UPLOAD_CODE_TTL_HOURS.max }).success).toBe(true);
    expect(uploadCodeInput.safeParse({ ...base, ttlHours: UPLOAD_CODE_TTL_HOURS.max + 1 }).success).toBe(false);
    expect(uploadCodeInput.safeParse({ ...base, ttlHours: UPLOAD_CODE_TTL_HOURS.min - 1 }).success).toBe(false);
  });
});

describe('small helpers', () => {
  it('names types as a reader knows them', () => {
    expect(['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'text/plain'].map(typeLabel)).toEqual(['PDF', 'PNG', 'JPG', 'WEBP', 'text/plain']);
  });

  it('uses a policy permit only while it has more than a minute left', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(isFresh({ expires: now / 1000 + 600 }, now)).toBe(true);
    expect(isFresh({ expires: now / 1000 + 60 }, now)).toBe(false);
  });
});

describe('the palette command', () => {
  const command = reportCommands.find((c) => c.id === 'report.attachments')!;

  it('is offered only when the account may list the attachments, and opens the tab', () => {
    let shown = 0;
    const ctx = (may: boolean) => ({ canShowAttachments: may, showAttachments: () => shown++ }) as unknown as ReportCommandContext;
    expect(command.label).toBe('report.commands.attachments');
    expect(command.when?.(ctx(true))).toBe(true);
    expect(command.when?.(ctx(false))).toBe(false);
    command.run(ctx(true));
    expect(shown).toBe(1);
  });
});
