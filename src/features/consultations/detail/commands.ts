import type { ConsultationAction } from '../../../../contract/consultations';
import type { CommandSpec } from '@/lib/commands';

/**
 * What a consultation screen gives its commands (scope 'consultation'): the detail, a related consultation and the
 * print view share one list, so their keys never collide; `page` says which screen is up.
 */
export interface ConsultationCommandContext {
  page: 'detail' | 'related' | 'print';
  /** The detail's `transitions` (empty on the related and print screens, and while a call runs). */
  can(action: ConsultationAction): boolean;
  canSaveResult: boolean;
  canPrint: boolean;
  schedule(): void;
  update(): void;
  editResult(): void;
  saveResult(): void;
  approve(): void;
  cancel(): void;
  rate(): void;
  payment(): void;
  members(): void;
  addCase(): void;
  link(): void;
  addExam(): void;
  suggest(): void;
  print(): void;
  video(): void;
  reload(): void;
  back(): void;
}

type Spec = CommandSpec<ConsultationCommandContext>;
const act = 'consultations.detailCommands.sections.actions';
const parts = 'consultations.detailCommands.sections.parts';
const view = 'consultations.detailCommands.sections.view';
const kw = (...words: string[]) => words;

function action(id: string, shortcut: string, need: ConsultationAction, run: (c: ConsultationCommandContext) => void, section = act, keywords: string[] = []): Spec {
  return { id: `consultation.${id}`, label: `consultations.detailCommands.${id}`, section, scope: 'consultation', shortcut, keywords, when: (c) => c.page === 'detail' && c.can(need), run };
}

/** Every action of the detail a command with its key, offered exactly when the detail's `transitions` has it. */
export const consultationCommands: readonly Spec[] = [
  action('schedule', 's', 'schedule', (c) => c.schedule(), act, kw('schedule', '安排', '排期')),
  action('update', 'u', 'update', (c) => c.update(), act, kw('edit', '编辑', 'reason', '原因')),
  action('editResult', 'e', 'writeResult', (c) => c.editResult(), act, kw('conclusion', '结论', 'result', '会诊结果')),
  { id: 'consultation.saveResult', label: 'consultations.detailCommands.saveResult', section: act, scope: 'consultation', shortcut: '$mod+s', when: (c) => c.page === 'detail' && c.canSaveResult, run: (c) => c.saveResult() },
  action('approve', 'a', 'approve', (c) => c.approve(), act, kw('approve', '确认', '审核')),
  action('cancel', 'Shift+C', 'cancel', (c) => c.cancel(), act, kw('cancel', '取消')),
  action('rate', 'r', 'rate', (c) => c.rate(), act, kw('rating', '评价', '评分')),
  action('payment', 'p', 'setPayment', (c) => c.payment(), act, kw('payment', '支付', '付款')),
  action('members', 'm', 'editMembers', (c) => c.members(), parts, kw('members', '成员', 'experts', '专家')),
  action('addCase', 'n', 'addCase', (c) => c.addCase(), parts, kw('case', '病历', 'attachment', '附件')),
  action('link', 'l', 'link', (c) => c.link(), parts, kw('link', '关联', 'related', '历史')),
  action('addExam', 'x', 'addExam', (c) => c.addExam(), parts, kw('exam', '检查', 'visit', '就诊')),
  action('suggest', 'o', 'suggest', (c) => c.suggest(), parts, kw('suggestion', '意见', '建议')),
  { id: 'consultation.print', label: 'consultations.detailCommands.print', section: view, scope: 'consultation', shortcut: '$mod+p', keywords: kw('print', '打印'), when: (c) => (c.page === 'print' ? c.canPrint : c.page === 'detail' && c.can('print')), run: (c) => c.print() },
  { id: 'consultation.video', label: 'consultations.detailCommands.video', section: view, scope: 'consultation', shortcut: 'v', keywords: kw('video', '视频'), when: (c) => c.page === 'detail', run: (c) => c.video() },
  { id: 'consultation.reload', label: 'consultations.detailCommands.reload', section: view, scope: 'consultation', shortcut: 'Shift+R', when: (c) => c.page !== 'print', run: (c) => c.reload() },
  { id: 'consultation.back', label: 'consultations.detailCommands.back', section: view, scope: 'consultation', shortcut: 'Escape', run: (c) => c.back() },
];
