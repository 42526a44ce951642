import { Enums, RenderingEngine, eventTarget, type Types } from '@cornerstonejs/core';
import { Enums as ToolEnums, ToolGroupManager } from '@cornerstonejs/tools';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { patientNameText } from '@/lib/format';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { viewerCommands, type PrimaryTool, type ViewerCommandContext } from './commands';
import { TOOL_NAMES, startCornerstone } from './engine/cornerstone';
import { presetsFor, toRange, toWindow, WINDOW_PRESETS, type VoiRange } from './presets';
import { SeriesList } from './SeriesList';
import { previewUrl } from './stack';
import { clampIndex, stacksOf, type Stack } from './stack';
import { useSeries } from './useSeries';
import { ViewerToolbar } from './ViewerToolbar';
import type { StudyViewerProps } from './types';

const { MouseBindings } = ToolEnums;

interface ViewState {
  index: number;
  voi: VoiRange | null;
  zoom: number;
  inverted: boolean;
}

const INITIAL_VIEW: ViewState = { index: 0, voi: null, zoom: 1, inverted: false };

/**
 * The study viewer (its own chunk): series list, one stack viewport, window/level, zoom, pan, scrolling
 * by wheel and keys, and capture of the current view as a key image. Rendering is Cornerstone3D's (GPU,
 * or its CPU path where WebGL is missing); decoding (JPEG, RLE, JPEG-LS, JPEG 2000 ...) is its loader's.
 */
export default function ViewerCore({ examId, access, onCapture, captureBlocked, className = '' }: StudyViewerProps) {
  const { t } = useTranslation();
  const uid = useId().replace(/[^a-zA-Z0-9]/g, '');
  const ids = useMemo(() => ({ engine: `engine-${uid}`, viewport: `viewport-${uid}`, group: `tools-${uid}` }), [uid]);
  const element = useRef<HTMLDivElement>(null);
  const viewportRef = useRef<Types.IStackViewport | null>(null);
  // The image id the viewport last put on screen. Cornerstone also says IMAGE_RENDERED for a render of an empty
  // viewport (the first resize comes before the image has loaded): "rendered" waits for an image of this stack.
  const shownImage = useRef<string | null>(null);
  const { data, error, token, reload } = useSeries(examId, access);
  const stacks = useMemo<Stack[]>(() => (data && token ? stacksOf(data.list, token, data.base) : []), [data, token]);
  const [seriesIndex, setSeriesIndex] = useState(0);
  const stack = stacks[seriesIndex] ?? null;
  const [view, setView] = useState<ViewState>(INITIAL_VIEW);
  const [loadFailed, setLoadFailed] = useState(false);
  const [rendered, setRendered] = useState(false);
  const [tool, setTool] = useState<PrimaryTool>('windowLevel');
  const [capturing, setCapturing] = useState(false);
  // Bumped by "try again" after a failed image: the stack is set anew.
  const [attempt, setAttempt] = useState(0);

  // One rendering engine and tool group per viewer on the page; both go with it.
  useEffect(() => {
    const el = element.current;
    if (!el) return;
    startCornerstone();
    const engine = new RenderingEngine(ids.engine);
    engine.enableElement({ viewportId: ids.viewport, type: Enums.ViewportType.STACK, element: el, defaultOptions: { background: [0, 0, 0] } });
    viewportRef.current = engine.getViewport(ids.viewport) as Types.IStackViewport;
    const group = ToolGroupManager.createToolGroup(ids.group);
    if (group) {
      for (const name of Object.values(TOOL_NAMES)) group.addTool(name);
      group.addViewport(ids.viewport, ids.engine);
      group.setToolActive(TOOL_NAMES.windowLevel, { bindings: [{ mouseButton: MouseBindings.Primary }] });
      group.setToolActive(TOOL_NAMES.pan, { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
      group.setToolActive(TOOL_NAMES.zoom, { bindings: [{ mouseButton: MouseBindings.Secondary }] });
      group.setToolActive(TOOL_NAMES.stackScroll, { bindings: [{ mouseButton: MouseBindings.Wheel }] });
    }

    const readView = () => {
      const viewport = viewportRef.current;
      if (!viewport) return;
      const props = viewport.getProperties();
      setView({ index: viewport.getCurrentImageIdIndex(), voi: props.voiRange ?? null, zoom: viewport.getZoom(), inverted: Boolean(props.invert) });
    };
    const onRendered = () => {
      const shown = shownImage.current;
      if (!shown || !viewportRef.current?.getImageIds().includes(shown)) return;
      setRendered(true);
      readView();
    };
    const onNewImage = (event: Event) => {
      shownImage.current = (event as CustomEvent<{ imageId?: string }>).detail?.imageId ?? null;
      readView();
    };
    const onLoadError = (event: Event) => {
      const detail = (event as CustomEvent<{ imageId?: string }>).detail;
      if (detail?.imageId && viewportRef.current?.getImageIds().includes(detail.imageId)) setLoadFailed(true);
    };
    el.addEventListener(Enums.Events.IMAGE_RENDERED, onRendered);
    el.addEventListener(Enums.Events.STACK_NEW_IMAGE, onNewImage);
    el.addEventListener(Enums.Events.VOI_MODIFIED, readView);
    el.addEventListener(Enums.Events.CAMERA_MODIFIED, readView);
    eventTarget.addEventListener(Enums.Events.IMAGE_LOAD_ERROR, onLoadError);
    // The panel beside the editor changes width: the canvas follows without stretching the image.
    const resize = new ResizeObserver(() => engine.resize(true, true));
    resize.observe(el);
    return () => {
      resize.disconnect();
      el.removeEventListener(Enums.Events.IMAGE_RENDERED, onRendered);
      el.removeEventListener(Enums.Events.STACK_NEW_IMAGE, onNewImage);
      el.removeEventListener(Enums.Events.VOI_MODIFIED, readView);
      el.removeEventListener(Enums.Events.CAMERA_MODIFIED, readView);
      eventTarget.removeEventListener(Enums.Events.IMAGE_LOAD_ERROR, onLoadError);
      ToolGroupManager.destroyToolGroup(ids.group);
      viewportRef.current = null;
      engine.destroy();
    };
  }, [ids]);

  // A new series: its stack from the first image, the window from the file.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport || !stack) return;
    let live = true;
    setLoadFailed(false);
    setRendered(false);
    shownImage.current = null;
    setView(INITIAL_VIEW);
    viewport.setStack(stack.images.map((i) => i.imageId), 0).then(
      () => live && viewport.render(),
      () => live && setLoadFailed(true),
    );
    return () => {
      live = false;
    };
  }, [stack, attempt]);

  const move = useCallback((delta: number) => {
    const viewport = viewportRef.current;
    if (!viewport || !stack) return;
    const next = clampIndex(viewport.getCurrentImageIdIndex(), delta, stack.images.length);
    void viewport.setImageIdIndex(next);
  }, [stack]);

  const applyVoi = useCallback((voiRange: VoiRange | null) => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    if (voiRange) viewport.setProperties({ voiRange });
    else viewport.resetProperties();
    viewport.render();
  }, []);

  const chooseTool = useCallback((next: PrimaryTool) => {
    const group = ToolGroupManager.getToolGroup(ids.group);
    if (!group) return;
    setTool(next);
    // The left button does the chosen tool; the middle and right buttons keep pan and zoom.
    const primary = [{ mouseButton: MouseBindings.Primary }];
    group.setToolActive(TOOL_NAMES.windowLevel, { bindings: next === 'windowLevel' ? primary : [] });
    group.setToolActive(TOOL_NAMES.pan, { bindings: [{ mouseButton: MouseBindings.Auxiliary }, ...(next === 'pan' ? primary : [])] });
    group.setToolActive(TOOL_NAMES.zoom, { bindings: [{ mouseButton: MouseBindings.Secondary }, ...(next === 'zoom' ? primary : [])] });
  }, [ids.group]);

  const current = stack?.images[view.index] ?? null;
  const modality = stack?.series.modality ?? null;
  const presets = useMemo(() => presetsFor(modality), [modality]);

  const capture = useCallback(async () => {
    const viewport = viewportRef.current;
    if (!viewport || !current || !onCapture || capturing) return;
    setCapturing(true);
    try {
      const canvas = viewport.getCanvas();
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('canvas');
      const series = stack?.series;
      const description = [series?.seriesDescription, series?.seriesNumber !== null && series?.seriesNumber !== undefined ? `S${series.seriesNumber}` : null, current.instanceNumber !== null ? `I${current.instanceNumber}` : null]
        .filter(Boolean).join(' ');
      await onCapture({ blob, instanceId: current.instanceId, frame: current.frame, description });
      toasts.show({ message: t('viewer.capture.done'), kind: 'success' });
    } catch (err) {
      if (!isSessionEndingError(err)) toasts.show({ message: errorText(t, err), kind: 'error' });
    } finally {
      setCapturing(false);
    }
  }, [current, onCapture, capturing, stack, t]);

  const ctx: ViewerCommandContext = {
    imageCount: stack?.images.length ?? 0,
    seriesCount: stacks.length,
    move,
    moveToEnd: (end) => move(end === 'first' ? -Infinity : Infinity),
    switchSeries: (delta) => setSeriesIndex((i) => clampIndex(i, delta, stacks.length)),
    presetIds: presets.map((p) => p.id),
    applyPreset: (id) => applyVoi(WINDOW_PRESETS.find((p) => p.id === id)?.window ? toRange(WINDOW_PRESETS.find((p) => p.id === id)!.window!) : null),
    reset: () => {
      const viewport = viewportRef.current;
      if (!viewport) return;
      viewport.resetCamera();
      viewport.resetProperties();
      viewport.render();
    },
    invert: () => {
      const viewport = viewportRef.current;
      if (!viewport) return;
      viewport.setProperties({ invert: !viewport.getProperties().invert });
      viewport.render();
    },
    zoomBy: (factor) => {
      const viewport = viewportRef.current;
      if (!viewport) return;
      viewport.setZoom(viewport.getZoom() * factor);
      viewport.render();
    },
    useTool: chooseTool,
    canCapture: Boolean(onCapture) && !captureBlocked && rendered && !capturing,
    capture: () => void capture(),
  };
  useCommands(viewerCommands, ctx);

  const shownWindow = view.voi ? toWindow(view.voi) : null;
  const loading = !error && (!data || (stack !== null && !rendered && !loadFailed));

  return (
    <CommandScope scope="viewer">
      <section aria-label={t('viewer.title')} className={`flex min-h-0 min-w-0 overflow-hidden rounded-md border border-line bg-surface ${className}`}>
        <SeriesList stacks={stacks} selected={seriesIndex} onSelect={setSeriesIndex} previewOf={data && token ? (id) => previewUrl(data.base, id, token) : undefined} />
        <div className="flex min-w-0 flex-1 flex-col">
          <ViewerToolbar ctx={ctx} tool={tool} presets={presets} inverted={view.inverted} capturing={capturing}
            showCapture={Boolean(onCapture)} captureBlocked={captureBlocked ?? null} />
          <div className="relative min-h-0 flex-1 bg-black">
            {/* Focus sits on this wrapper, not on Cornerstone's element: its tools swallow every keydown they see (preventDefault).
                An application: the keys (scroll, window, zoom) belong to the viewer, and its name says what it shows. */}
            <div
              role="application"
              tabIndex={0}
              data-testid="viewer-viewport"
              data-rendered={rendered ? 'true' : 'false'}
              data-series={stack?.series.seriesNumber ?? ''}
              aria-label={t('viewer.viewport', { series: stack?.series.seriesDescription ?? '', index: view.index + 1, count: stack?.images.length ?? 0 })}
              onContextMenu={(event) => event.preventDefault()}
              className="absolute inset-0 outline-none focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-[var(--focus)]"
            >
              <div ref={element} className="absolute inset-0" />
            </div>
            {stack && (
              <>
                <p className="pointer-events-none absolute left-2 top-1.5 text-xs leading-4 text-white/85 [text-shadow:0_1px_2px_black]">
                  {data && <><span data-testid="viewer-patient" className="font-medium">{patientNameText(data.list.patientName)}</span> <span className="tabular-nums">{data.list.patientId}</span><br /></>}
                  {stack.series.modality ?? ''} {stack.series.seriesNumber !== null ? t('viewer.overlay.series', { number: stack.series.seriesNumber }) : ''}
                  <br />
                  {stack.series.seriesDescription ?? ''}
                </p>
                <p data-testid="viewer-position" className="pointer-events-none absolute right-2 top-1.5 text-right text-xs leading-4 tabular-nums text-white/85 [text-shadow:0_1px_2px_black]">
                  {t('viewer.overlay.image', { index: view.index + 1, count: stack.images.length })}
                  {current && current.frames > 1 ? <><br />{t('viewer.overlay.frame', { frame: current.frame + 1, count: current.frames })}</> : null}
                </p>
                <p className="pointer-events-none absolute bottom-1.5 left-2 text-xs tabular-nums text-white/85 [text-shadow:0_1px_2px_black]">
                  {shownWindow ? t('viewer.overlay.window', { width: Math.round(shownWindow.width), center: Math.round(shownWindow.center) }) : ''}
                  {' · '}
                  {t('viewer.overlay.zoom', { zoom: Math.round(view.zoom * 100) })}
                </p>
              </>
            )}
            {loading && (
              <div className="absolute inset-0 flex items-center justify-center">
                <Spinner label={t('viewer.loading')} />
              </div>
            )}
            {data && stacks.length === 0 && (
              <p className="absolute inset-0 flex items-center justify-center text-sm text-white/70">{t('viewer.empty')}</p>
            )}
            {(error || loadFailed) && (
              <div className="absolute inset-x-4 top-10">
                <Alert>
                  {error ? errorText(t, error) : t('viewer.loadFailed')}{' '}
                  <button type="button" className="link" onClick={() => (error ? reload() : setAttempt((n) => n + 1))}>{t('common.retry')}</button>
                </Alert>
              </div>
            )}
          </div>
        </div>
      </section>
    </CommandScope>
  );
}
