/**
 * An organisation's print templates (areas §3 "Report template", "Organisation": exam and consultation print templates;
 * §5: QR text at most 10 characters, a square JPEG or PNG logo, a PNG stamp with a transparent background, names that do
 * not repeat; §9: a 128 × 128 logo is recommended). Every request and response of server/organizations/printTemplates.ts.
 */
import { z } from 'zod';
import { QR_TEXT_MAX } from './constants';

/** 1 = an exam report's layout, 3 = a consultation's (areas §3 "Layout type 3 applies to consultation templates"). */
export const PRINT_LAYOUTS = [1, 3] as const;
export type PrintLayout = (typeof PRINT_LAYOUTS)[number];
export const SIGNATURE_OF = ['creator', 'approver'] as const;
export type SignatureOf = (typeof SIGNATURE_OF)[number];
export const QR_MODES = ['none', 'static', 'dynamic'] as const;
export type QrMode = (typeof QR_MODES)[number];
export const PRINT_IMAGES = ['logo', 'stamp'] as const;
export type PrintImage = (typeof PRINT_IMAGES)[number];

export const PRINT_TEMPLATE_NAME_MAX = 64;
export const PRINT_TITLE_MAX = 64;
export const PRINT_TITLES_MAX = 3;
/** Logo and stamp files: small images (a 128 × 128 logo is a few kilobytes). */
export const PRINT_IMAGE_MAX_BYTES = 1024 * 1024;
/** areas §9: the recommended logo size, shown beside the logo picker. */
export const LOGO_RECOMMENDED_PX = 128;
/** What each image accepts, checked on the bytes (never the file name). */
export const PRINT_IMAGE_TYPES: Record<PrintImage, readonly ('image/png' | 'image/jpeg')[]> = {
  logo: ['image/jpeg', 'image/png'],
  stamp: ['image/png'],
};

export interface PrintTemplate {
  id: number;
  bucketId: number;
  name: string;
  layoutType: PrintLayout;
  /** The modality it is the default for; null = the general default (any modality without its own). */
  modality: string | null;
  isDefault: boolean;
  titles: string[];
  /** A short-lived read link of the stored logo, or null. */
  logo: string | null;
  stamp: string | null;
  signatureOf: SignatureOf;
  qrMode: QrMode;
  /** The static QR text (qrMode static); at most QR_TEXT_MAX characters. */
  qrText: string | null;
  exactTime: boolean;
  pageNumbers: boolean;
  updated: string | null;
}

const trimmed = (max: number) => z.string().trim().min(1).max(max);

export const printTemplateInput = z.object({
  name: trimmed(PRINT_TEMPLATE_NAME_MAX),
  layoutType: z.union([z.literal(1), z.literal(3)]).default(1),
  /** Upper-cased; null or empty = the general one. */
  modality: z.string().trim().max(8).regex(/^[A-Za-z0-9]*$/, 'letters and digits only').nullable()
    .transform((m) => (m ? m.toUpperCase() : null)).default(null),
  titles: z.array(trimmed(PRINT_TITLE_MAX)).max(PRINT_TITLES_MAX).default([]),
  signatureOf: z.enum(SIGNATURE_OF).default('approver'),
  qrMode: z.enum(QR_MODES).default('none'),
  qrText: z.string().trim().max(QR_TEXT_MAX).nullable().default(null).transform((q) => q || null),
  exactTime: z.boolean().default(false),
  pageNumbers: z.boolean().default(true),
}).superRefine((v, ctx) => {
  // A static QR code needs its text (the dynamic one is made per report).
  if (v.qrMode === 'static' && !v.qrText) ctx.addIssue({ code: 'custom', path: ['qrText'], message: 'required for a static QR code' });
});
export type PrintTemplateInput = z.input<typeof printTemplateInput>;

export const printTemplateListQuery = z.object({
  layoutType: z.union([z.literal('1'), z.literal('3')]).transform(Number).pipe(z.union([z.literal(1), z.literal(3)])).optional(),
});
