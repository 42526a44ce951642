import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * Knowledge-base demo data: a few folders of reading notes and guidelines in Chinese, with links to the organisation's
 * seeded writing templates, so /kb opens on a working tree. Sorts are 1…n in each level, as the server keeps them.
 */
const TREE: { name: string; texts: { name: string; content: string }[]; links?: string[] }[] = [
  {
    name: '胸部影像',
    texts: [
      {
        name: '肺结节随访建议（Fleischner 2017）',
        content: '<h3>实性结节（单发）</h3><ul><li>&lt;6 mm：低危者无需常规随访；高危者 12 个月复查 CT。</li><li>6–8 mm：6–12 个月复查，之后 18–24 个月考虑再复查。</li><li>&gt;8 mm：3 个月复查 CT，或 PET/CT、活检。</li></ul><p><b>注意：</b>本建议不适用于肺癌筛查人群及已知肿瘤患者。</p>',
      },
      {
        name: '肺部磨玻璃结节描述要点',
        content: '<p>描述位置、大小（长径与短径）、密度（纯磨玻璃 / 部分实性，实性成分大小）、形态、边缘（分叶、毛刺）、胸膜牵拉、空泡征、血管集束征。</p><p>与既往片对比，写明变化。</p>',
      },
    ],
    links: ['胸部正常'],
  },
  {
    name: '神经影像',
    texts: [
      {
        name: '急性脑卒中 CT 阅片流程',
        content: '<ol><li>首先排除颅内出血。</li><li>寻找早期缺血征象：岛带征、豆状核模糊、脑沟消失、大脑中动脉高密度征。</li><li>计算 ASPECTS 评分。</li><li>危急值：立即电话通知临床并记录。</li></ol>',
      },
    ],
    links: ['头颅正常'],
  },
  {
    name: '科室规范',
    texts: [
      {
        name: '报告书写规范',
        content: '<p>所见与结论分开书写；结论按临床意义由重到轻排列；测量值保留一位小数并注明单位；避免使用“考虑”“可能”堆砌。</p>',
      },
      {
        name: '危急值报告制度',
        content: '<p>发现危急值后 15 分钟内电话通知临床医师，记录通知时间、接听人姓名与工号，并在报告中注明。</p>',
      },
    ],
  },
];

export async function seedKb(db: Db, o: { bucketId: number; authorId: number }): Promise<void> {
  const templates = await db.select({ id: t.reportTemplates.id, name: t.reportTemplates.name }).from(t.reportTemplates)
    .where(and(eq(t.reportTemplates.bucketId, o.bucketId), eq(t.reportTemplates.isFolder, false))).orderBy(asc(t.reportTemplates.id));
  const byName = new Map(templates.map((tpl) => [tpl.name, tpl.id]));
  let top = 0;
  for (const folder of TREE) {
    const [dir] = await db.insert(t.kbItems).values({ bucketId: o.bucketId, type: 'folder', name: folder.name, sort: ++top, createdBy: o.authorId }).returning();
    let sort = 0;
    const texts = folder.texts.map((text) => ({
      bucketId: o.bucketId, parentId: dir!.id, type: 'text', name: text.name, content: text.content, sort: ++sort, createdBy: o.authorId,
    }));
    // A link to a template named here, or to the organisation's first template when the names have changed.
    const links = (folder.links ?? []).flatMap((name) => {
      const referenceId = byName.get(name) ?? templates[0]?.id;
      return referenceId === undefined ? [] : [{ bucketId: o.bucketId, parentId: dir!.id, type: 'template', name: `模板：${name}`, referenceId, sort: ++sort, createdBy: o.authorId }];
    });
    await db.insert(t.kbItems).values([...texts, ...links]);
  }
  await db.insert(t.kbItems).values({
    bucketId: o.bucketId, type: 'text', name: '常用英文缩写', sort: top + 1, createdBy: o.authorId,
    content: '<p><b>GGO</b> 磨玻璃影；<b>DWI</b> 弥散加权成像；<b>ADC</b> 表观弥散系数；<b>ROI</b> 感兴趣区；<b>SUV</b> 标准摄取值。</p>',
  });
}
