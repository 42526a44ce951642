import { useTranslation } from 'react-i18next';
import type { PrimaryTool, ViewerCommandContext } from './commands';
import type { WindowPreset } from './presets';

const TOOLS: readonly { id: PrimaryTool; key: string }[] = [
  { id: 'windowLevel', key: 'W' },
  { id: 'pan', key: 'P' },
  { id: 'zoom', key: 'Z' },
];

interface ToolbarProps {
  ctx: ViewerCommandContext;
  tool: PrimaryTool;
  presets: WindowPreset[];
  inverted: boolean;
  capturing: boolean;
  showCapture: boolean;
  captureBlocked: string | null;
}

/** The same actions as the viewer's keys, for the mouse; each button names its key. */
export function ViewerToolbar({ ctx, tool, presets, inverted, capturing, showCapture, captureBlocked }: ToolbarProps) {
  const { t } = useTranslation();
  const disabled = ctx.imageCount === 0;
  const small = 'btn h-7 px-2 text-xs';
  return (
    <div role="toolbar" aria-label={t('viewer.toolbar')} className="flex min-h-9 flex-wrap items-center gap-1 border-b border-line px-2 py-1">
      <div role="group" aria-label={t('viewer.tools')} className="flex gap-0.5">
        {TOOLS.map(({ id, key }) => (
          <button key={id} type="button" aria-pressed={tool === id} disabled={disabled} onClick={() => ctx.useTool(id)}
            title={`${t(`viewer.commands.tool.${id}`)} (${key})`}
            className={`${small} ${tool === id ? 'border-accent bg-accent-soft text-fg' : ''}`}>
            {t(`viewer.toolNames.${id}`)}
          </button>
        ))}
      </div>
      <span aria-hidden="true" className="mx-1 h-4 w-px bg-line" />
      <div role="group" aria-label={t('viewer.presets.title')} className="flex gap-0.5">
        {presets.map((preset, i) => (
          <button key={preset.id} type="button" disabled={disabled} onClick={() => ctx.applyPreset(preset.id)}
            title={`${t(`viewer.presets.${preset.id}`)} (${i + 1})`} className={small}>
            {t(`viewer.presets.${preset.id}`)}
          </button>
        ))}
      </div>
      <span aria-hidden="true" className="mx-1 h-4 w-px bg-line" />
      <button type="button" aria-pressed={inverted} disabled={disabled} onClick={ctx.invert} title={`${t('viewer.commands.invert')} (I)`} className={small}>{t('viewer.invert')}</button>
      <button type="button" disabled={disabled} onClick={ctx.reset} title={`${t('viewer.commands.reset')} (R)`} className={small}>{t('viewer.reset')}</button>
      {showCapture && (
        <button type="button" disabled={!ctx.canCapture} onClick={ctx.capture} aria-describedby={captureBlocked ? 'viewer-capture-hint' : undefined}
          title={captureBlocked ?? `${t('viewer.commands.capture')} (C)`} className={`${small} btn-primary ml-auto`}>
          {capturing ? t('viewer.capture.sending') : t('viewer.capture.button')}
        </button>
      )}
      {showCapture && captureBlocked && <span id="viewer-capture-hint" className="sr-only">{captureBlocked}</span>}
    </div>
  );
}
