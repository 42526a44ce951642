/**
 * Template management (/templates): the screen is registered by the route table; other features need nothing from
 * here today. The workspace's picker lives in features/report/templates.
 */
export { templatesCommands, type TemplatesCommandContext } from './commands';
