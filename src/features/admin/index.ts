export { organizationSearchProvider } from './search';
