export { PublicFrame } from './PublicFrame';
