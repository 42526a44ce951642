import { Command as Cmdk } from 'cmdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveScopes, useAvailableCommands, type Command } from '@/lib/commands';
import { useSession } from '@/lib/session';
import { groupCommands } from './grouping';
import { Keys } from './Keys';
import { ModalDialog } from './ModalDialog';
import { useProviderResults, type PaletteResult, type SearchProvider } from './providers';
import { rankGroups } from './search';
import { useCommandText } from './useCommandText';

export interface PaletteProps {
  /** Called with the chosen command; the caller closes the palette and runs it once focus is back. */
  onRun: (command: Command) => void;
  onClose: () => void;
}

/**
 * The command palette (Ctrl/Cmd+K): every command available now, searched by its translated label, its
 * heading and its id. Arrows move, Enter runs, Esc closes. Its own 'open the palette' is left out.
 */
export default function Palette({ onRun, onClose }: PaletteProps) {
  const { t } = useTranslation();
  const text = useCommandText();
  const scopes = useActiveScopes();
  const commands = useAvailableCommands().filter((command) => command.id !== 'palette.open');
  const [search, setSearch] = useState('');
  const groups = rankGroups(groupCommands(commands, scopes), search, (command) => ({
    label: text.label(command), heading: text.heading(command), id: command.id, keywords: command.keywords ?? [],
  }));
  const { permissions } = useSession();
  // Features' results (knowledge-base items...) come after the commands, one group per provider.
  const found = useProviderResults(search, permissions);

  return (
    <ModalDialog label={t('palette.label')} onClose={onClose} className="items-start justify-center px-4 pt-[12vh]">
      <Cmdk
        label={t('palette.label')}
        loop
        // Ranked by rankGroups (search.ts): cmdk would sort inside each group only.
        shouldFilter={false}
        // Ctrl+K must stay ours (it closes the palette), not cmdk's "move up".
        vimBindings={false}
        className="flex max-h-[70vh] w-full max-w-xl flex-col overflow-hidden rounded-lg border border-line bg-raised text-base text-fg shadow-lg [:lang(bo)_&]:text-[16px]"
      >
        <Cmdk.Input
          data-autofocus
          value={search}
          onValueChange={setSearch}
          placeholder={t('palette.placeholder')}
          className="h-11 w-full shrink-0 border-b border-line bg-transparent px-4 text-fg outline-none placeholder:text-fg-subtle"
        />
        <Cmdk.List className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-1.5 [scroll-padding-block:0.5rem]">
          <Cmdk.Empty className="px-3 py-6 text-center text-fg-muted">{t('palette.empty')}</Cmdk.Empty>
          {groups.map((group) => (
            <Cmdk.Group
              key={group.heading}
              heading={text.heading(group.commands[0])}
              className="[&_[cmdk-group-heading]]:px-2.5 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-[11px] [:lang(bo)_&_[cmdk-group-heading]]:text-[13px] [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-fg-muted [&_[cmdk-group-heading]]:uppercase"
            >
              {group.commands.map((command) => (
                <Cmdk.Item
                  key={command.id}
                  value={command.id}
                  onSelect={() => onRun(command)}
                  className="flex min-h-8 cursor-default items-center justify-between gap-3 border-l-2 border-transparent px-2.5 py-1 text-fg select-none rounded-sm data-[selected=true]:border-accent data-[selected=true]:bg-accent-soft"
                >
                  <span className="truncate">{text.label(command)}</span>
                  {command.shortcut && <Keys shortcut={command.shortcut} />}
                </Cmdk.Item>
              ))}
            </Cmdk.Group>
          ))}
          {found.map(({ provider, results }) => (
            <Cmdk.Group key={`search:${provider.id}`} heading={t(provider.heading as never)} className={GROUP_CLASS}>
              {results.map((result) => (
                <Cmdk.Item
                  key={result.id}
                  value={`search:${provider.id}:${result.id}`}
                  onSelect={() => onRun(resultCommand(provider, result))}
                  className="flex min-h-8 cursor-default flex-col justify-center border-l-2 border-transparent px-2.5 py-1 text-fg select-none rounded-sm data-[selected=true]:border-accent data-[selected=true]:bg-accent-soft"
                >
                  <span className="truncate">{result.label}</span>
                  {result.detail && <span className="truncate text-[11px] text-fg-muted [:lang(bo)_&]:text-[13px]">{result.detail}</span>}
                </Cmdk.Item>
              ))}
            </Cmdk.Group>
          ))}
        </Cmdk.List>
        <footer className="flex shrink-0 items-center gap-4 border-t border-line px-3 py-1.5 text-[11px] text-fg-muted [:lang(bo)_&]:text-[13px]">
          <span className="inline-flex items-center gap-1.5">
            <Keys shortcut="ArrowUp" />
            <Keys shortcut="ArrowDown" />
            {t('palette.hints.move')}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Keys shortcut="Enter" />
            {t('palette.hints.run')}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Keys shortcut="Escape" />
            {t('palette.hints.close')}
          </span>
        </footer>
      </Cmdk>
    </ModalDialog>
  );
}

const GROUP_CLASS = '[&_[cmdk-group-heading]]:px-2.5 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-[11px] [:lang(bo)_&_[cmdk-group-heading]]:text-[13px] [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-fg-muted [&_[cmdk-group-heading]]:uppercase';

/** A provider's result run the way a chosen command is: after the palette has closed and given the focus back. */
function resultCommand(provider: SearchProvider, result: PaletteResult): Command {
  return { id: `search.${provider.id}.${result.id}`, label: result.label, scope: 'global', when: () => true, run: result.run };
}
