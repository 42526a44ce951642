import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * Administration demo data (issue 14): the hospital's critical values, its scanners in two device groups, two exam
 * extension keys and who is told of critical values, so the organisation's screens show a working setup. No assign
 * rule: uploads stay unassigned in the demo, as the reading-room tests expect.
 */
export async function seedAdmin(db: Db, ids: { groupId: number; hospitalId: number; chief: number }): Promise<void> {
  const bucketId = ids.hospitalId;
  await db.insert(t.criticalValues).values(
    ['急性脑出血', '大面积脑梗死', '主动脉夹层', '急性肺栓塞', '张力性气胸', '消化道穿孔', '急性肠梗阻'].map((name, sortOrder) => ({ bucketId, name, sortOrder })),
  );
  const [ct, other] = await db.insert(t.deviceGroups).values([
    { bucketId, name: 'CT/MR 中心', sortOrder: 0 },
    { bucketId, name: '普放与超声', sortOrder: 1 },
  ]).returning();
  await db.insert(t.devices).values([
    { bucketId, deviceGroupId: ct!.id, name: 'CT-1 64 排', modality: 'CT', aeTitle: 'CT1_SCANNER', room: 'CT室1', sortOrder: 0 },
    // A second, older CT: the device workload statistics compare two scanners of one modality.
    { bucketId, deviceGroupId: ct!.id, name: 'CT-2 16 排', modality: 'CT', aeTitle: 'CT2_SCANNER', room: 'CT室2', sortOrder: 1 },
    { bucketId, deviceGroupId: ct!.id, name: 'MR-1 1.5T', modality: 'MR', aeTitle: 'MR1_SCANNER', room: 'MR室', sortOrder: 2 },
    { bucketId, deviceGroupId: other!.id, name: 'DR-1', modality: 'DX', aeTitle: 'DR1', room: 'DR室', sortOrder: 3 },
    { bucketId, deviceGroupId: other!.id, name: '彩超-1', modality: 'US', aeTitle: 'US1', room: '超声室', sortOrder: 4 },
  ]);
  await db.insert(t.bucketExtensions).values([{ bucketId, key: 'contrast', label: '对比剂' }, { bucketId, key: 'dose_mgy', label: '剂量 (mGy)' }]);
  await db.insert(t.notificationSettings).values({ groupId: ids.groupId, bucketId, type: 'criticalValue', accountIds: [ids.chief] });
}
