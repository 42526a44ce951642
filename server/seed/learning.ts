import type { Db } from '../db/client';
import { learnings } from '../db/schema';

/**
 * The demo's training videos: the files scripts/make-learning-videos.sh made into public/learning/ (the web app
 * serves them; the seed only lists them). Titles are bilingual as the videos are. Categories are keys the client
 * names in its own language (learning.categories.<key>). A library that already has videos is left alone.
 */
export const DEMO_LEARNINGS = [
  {
    title: '工作列表与快捷键 / The worklist by keyboard', category: 'workstation', sort: 10, durationSec: 20,
    videoUrl: '/learning/worklist.webm', posterUrl: '/learning/worklist.jpg',
    description: '用 J / K 在列表中移动，回车打开报告，Ctrl+K 打开命令面板。Move through the worklist with J and K, open a report with Enter, find any command with Ctrl+K.',
  },
  {
    title: '书写与审核报告 / Writing and approving a report', category: 'reporting', sort: 20, durationSec: 20,
    videoUrl: '/learning/report.webm', posterUrl: '/learning/report.jpg',
    description: '书写所见与诊断，Ctrl+S 保存草稿，提交后由审核医生审核。Type the findings and the impression, save the draft with Ctrl+S, submit it for a reviewer to approve.',
  },
  {
    title: '叫号 / Calling patients', category: 'calling', sort: 30, durationSec: 20,
    videoUrl: '/learning/calling.webm', posterUrl: '/learning/calling.jpg',
    description: '当天的候诊队列、呼叫下一位，以及候诊屏的显示与语音播报。The day\'s queue, calling the next patient, and the waiting-room screen that shows and speaks the number.',
  },
] as const;

export async function seedLearning(db: Db): Promise<void> {
  const [any] = await db.select({ id: learnings.id }).from(learnings).limit(1);
  if (any) return;
  await db.insert(learnings).values(DEMO_LEARNINGS.map((l) => ({ ...l })));
}
