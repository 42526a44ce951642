/** Learning videos (areas §2 /learning and /learning/{id}): the screens are registered in src/app/routes.tsx. */
export { LEARNING_LIST_PATH, learningPath } from './paths';
