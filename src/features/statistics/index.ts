/**
 * What the app composes of the statistics area: its commands for the catalog and the palette's "Open statistics:
 * <chart>" (registered with the global ones). The screens are routes (src/app/routes.tsx), each its own chunk.
 */
export { statisticsCommands, statisticsOpenCommands, statisticsPath, type StatisticsCtx, type StatisticsOpenCtx } from './commands';
