export { SettingsCommands } from './SettingsCommands';
export { UserAvatar } from './UserAvatar';
export { SETTINGS_SECTIONS } from './sections';
