export { PageViews } from './PageViews';
