/** The "page not found" screen, which other screens show for an object that does not exist. */
export { default as NotFoundPage } from './NotFoundPage';
