/** The exam drawer, which the worklist opens beside the list (its own chunk: `lazy(() => import('@/features/examDetail'))`). */
export { default } from './ExamDrawer';
