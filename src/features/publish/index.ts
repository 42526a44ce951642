/** What other features use of the publishing desk: the path of one report's publishing page. */
export { publishDetailPath } from './paths';
