import { useCommands } from '@/lib/commands';
import { useSession } from '@/lib/session';
import { isRegistered } from '@/lib/session/routeRegistry';
import { settingsCommands, type SettingsCommandContext } from './commands';

function Registered({ ctx }: { ctx: SettingsCommandContext }) {
  useCommands(settingsCommands, ctx);
  return null;
}

/** Registers the settings sections' palette commands while the session is ready. Renders nothing. */
export function SettingsCommands() {
  const { status, navigate } = useSession();
  if (status !== 'ready') return null;
  return <Registered ctx={{ canOpen: (href) => isRegistered(href), navigate }} />;
}
