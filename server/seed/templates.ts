import type { Db } from '../db/client';
import { printTemplates, reportTemplates } from '../db/schema';
import { BODY_PARTS, reportText } from './clinical';

function normalText(r: ReturnType<typeof rng>, part: string) {
  const { finding, diagnosis } = reportText(r, part, false);
  return { finding, diagnosis };
}
import { rng } from './random';

/** A template tree per organisation: one folder per modality, a normal template per body part. */
export async function seedTemplates(db: Db, bucketId: number): Promise<void> {
  const r = rng(bucketId);
  let sort = 0;
  for (const [modality, parts] of Object.entries(BODY_PARTS)) {
    const [folder] = await db.insert(reportTemplates).values({ bucketId, name: modality, isFolder: true, modality, sort: sort++ }).returning();
    await db.insert(reportTemplates).values(parts.map((part, i) => ({
      bucketId, parentId: folder!.id, name: `${part}正常`, modality, bodyPart: part, sort: i, ...normalText(r, part),
    })));
  }
  await db.insert(printTemplates).values({
    bucketId, name: '标准报告单', isDefault: true, titles: ['影像诊断报告单'], signatureOf: 'approver',
    qrMode: 'static', qrText: 'REPORT', exactTime: false, pageNumbers: true,
  });
}
