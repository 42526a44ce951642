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
  // A second exam layout to choose on the print page, and the consultation layout (areas §3: layout type 3).
  await db.insert(printTemplates).values([
    { bucketId, name: '精确时间报告单', titles: ['影像诊断报告单', '（复印无效）'], signatureOf: 'creator', qrMode: 'dynamic', exactTime: true, pageNumbers: true },
    { bucketId, name: '会诊报告单', isDefault: true, layoutType: 3, titles: ['远程会诊报告单'], signatureOf: 'approver', qrMode: 'none', pageNumbers: true },
  ]);
}

/**
 * The group's shared tree (isGroupKb is on for the demo group): conventions every organisation of the group writes
 * by, kept by the group's administrators.
 */
export async function seedGroupTemplates(db: Db, groupId: number): Promise<void> {
  const [folder] = await db.insert(reportTemplates).values({ groupId, name: '集团规范', isFolder: true, sort: 0 }).returning();
  await db.insert(reportTemplates).values([
    {
      groupId, parentId: folder!.id, name: '肺结节随访（Fleischner）', modality: 'CT', bodyPart: '胸部', sort: 0,
      finding: '<p>右肺上叶见实性结节，大小约 <strong>__ mm</strong>，边缘光整，未见分叶及毛刺。余肺野清晰，纵隔未见肿大淋巴结。</p>',
      diagnosis: '<p>右肺上叶实性小结节，建议按 Fleischner 指南 6–12 个月后低剂量 CT 随访。</p>',
    },
    {
      groupId, parentId: folder!.id, name: '甲状腺结节 TI-RADS', modality: 'US', bodyPart: '甲状腺', sort: 1,
      finding: '<p>甲状腺__叶见低回声结节，大小约 __×__ mm，边界清，形态规则，纵横比&lt;1，未见微钙化。</p>',
      diagnosis: '<p>甲状腺__叶结节，C-TIRADS __ 类。</p>',
    },
    {
      groupId, parentId: folder!.id, name: '危急值通报用语', sort: 2,
      finding: '<p>（所见按检查填写）</p>',
      diagnosis: '<p>本检查发现危急值，已于 __ 时 __ 分电话通知临床 __ 医生。</p>',
    },
  ]);
}
