import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SAMPLE_GRAPH_COLOURS, type SampleGraph, type SampleGraphPoint } from '../../../../../contract/sampleGraphs';
import { useCommands } from '@/lib/commands';
import { ErrorNote, failedFields } from '../../group/settings/parts';
import { useWrite } from '../../ui/useWrite';
import { sampleGraphsApi } from './api';
import { sampleGraphEditorCommands } from './commands';
import { clamp, cycled, moved, pct, pointNear, samePoints, type Cursor } from './points';

/**
 * One drawing's editor: its name and origin, and the points on it. A click places a point in the chosen colour (or
 * chooses the point under it); by keyboard the arrows move a crosshair (Shift: in bigger steps) and Enter places a
 * point there; Tab and Shift+Tab walk the points, the arrows then move the chosen one; Delete removes it; Esc chooses
 * none; Ctrl+S saves (commands.ts). Nothing is written until saved.
 */
export function SampleGraphEditor({ graph, canManage, onSaved, onDirty }: {
  graph: SampleGraph; canManage: boolean; onSaved: (graph: SampleGraph) => void; onDirty: (dirty: boolean) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [saved, setSaved] = useState(graph);
  const [name, setName] = useState(graph.name);
  const [origin, setOrigin] = useState(graph.origin);
  const [points, setPoints] = useState<SampleGraphPoint[]>(graph.points);
  const [selected, setSelected] = useState<number | null>(null);
  const [cursor, setCursor] = useState<Cursor>({ x: 0.5, y: 0.5 });
  const [colour, setColour] = useState<string>(SAMPLE_GRAPH_COLOURS[0]);
  const [focused, setFocused] = useState(false);
  const imageRef = useRef<HTMLImageElement>(null);
  const { busy, error, run } = useWrite({ errors: 'inline' });
  const dirty = name.trim() !== saved.name || origin.trim() !== saved.origin || !samePoints(points, saved.points);
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const invalid = new Set(failedFields(error));
  const point = selected !== null ? points[selected] ?? null : null;

  const save = async () => {
    if (!canManage || !dirty || busy || !name.trim()) return;
    let answer: SampleGraph | null = null;
    const ok = await run(async () => { answer = await sampleGraphsApi.update(graph.id, { name: name.trim(), origin: origin.trim(), points }); }, t('sampleGraphs.saved', { name: name.trim() }));
    if (ok && answer) {
      const next: SampleGraph = answer;
      setSaved(next);
      setName(next.name);
      setOrigin(next.origin);
      setPoints(next.points);
      onSaved(next);
    }
  };
  const place = (at: Cursor) => {
    setPoints((list) => [...list, { x: at.x, y: at.y, color: colour }]);
    setSelected(points.length);
    setCursor(at);
  };
  const removePoint = () => {
    if (selected === null) return;
    setPoints((list) => list.filter((_, i) => i !== selected));
    setSelected(null);
  };
  const change = (index: number, patch: Partial<SampleGraphPoint>) => setPoints((list) => list.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  useCommands(sampleGraphEditorCommands, { save: () => void save(), removePoint, canSave: canManage && dirty && !busy && Boolean(name.trim()), hasPoint: canManage && point !== null });

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'Tab') {
      const next = cycled(points.length, selected, event.shiftKey);
      setSelected(next);
      if (next === null) return; // leave the drawing as Tab always does
      event.preventDefault();
      setCursor({ x: points[next]!.x, y: points[next]!.y });
      return;
    }
    if (event.key === 'Escape' && selected !== null) {
      event.preventDefault();
      setSelected(null);
      return;
    }
    if (!canManage) return;
    const to = moved(point ?? cursor, event.key, event.shiftKey);
    if (to) {
      event.preventDefault();
      setCursor(to);
      if (selected !== null) change(selected, to);
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      place(cursor);
    }
  };
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const box = imageRef.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return;
    const at = { x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) };
    const hit = pointNear(points, at, { x: 9 / box.width, y: 9 / box.height });
    if (hit !== null) {
      setSelected(hit);
      setCursor({ x: points[hit]!.x, y: points[hit]!.y });
    } else if (canManage) place(at);
  };
  const field = 'mb-1 block text-[13px] font-medium';

  return (
    <div className="flex min-w-0 flex-1 flex-col gap-3" data-testid="sample-graph-editor">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-56">
          <label htmlFor={`${ids}-name`} className={field}>{t('sampleGraphs.name')}</label>
          <input id={`${ids}-name`} className="input" value={name} maxLength={64} disabled={!canManage} onChange={(e) => setName(e.target.value)} aria-invalid={invalid.has('name') || !name.trim() || undefined} />
        </div>
        <div className="w-44">
          <label htmlFor={`${ids}-origin`} className={field}>{t('sampleGraphs.origin')}</label>
          <input id={`${ids}-origin`} className="input" value={origin} maxLength={64} disabled={!canManage} onChange={(e) => setOrigin(e.target.value)} aria-invalid={invalid.has('origin') || undefined} />
        </div>
        {canManage && (
          <fieldset className="flex items-center gap-1.5">
            <legend className={field}>{t('sampleGraphs.colour')}</legend>
            {SAMPLE_GRAPH_COLOURS.map((c) => (
              <label key={c} className="relative grid h-7 w-7 cursor-pointer place-items-center rounded-md border border-line has-[:checked]:border-fg has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-[var(--focus)]">
                <input type="radio" name={`${ids}-colour`} value={c} checked={colour === c} className="sr-only" aria-label={t(`sampleGraphs.colours.${c.slice(1)}` as 'sampleGraphs.colours.e03131')}
                  onChange={() => { setColour(c); if (selected !== null) change(selected, { color: c }); }} />
                <span className="h-4 w-4 rounded-full ring-1 ring-fg-muted/40" style={{ backgroundColor: c }} />
              </label>
            ))}
          </fieldset>
        )}
        <div className="ml-auto flex items-center gap-2">
          <span className="text-xs text-fg-muted" aria-live="polite" data-testid="sample-graph-state">{dirty ? t('sampleGraphs.unsaved') : t('sampleGraphs.allSaved')}</span>
          {canManage && <button type="button" className="btn btn-primary h-7 text-xs" disabled={!dirty || busy || !name.trim()} onClick={() => void save()} data-testid="sample-graph-save">{t('sampleGraphs.save')}</button>}
        </div>
      </div>
      {error !== null && <ErrorNote error={error} labels={{ name: t('sampleGraphs.name'), origin: t('sampleGraphs.origin'), points: t('sampleGraphs.points') }} className="" />}
      <div className="flex min-w-0 gap-4">
        <div
          tabIndex={0}
          role="application"
          aria-roledescription={t('sampleGraphs.canvasRole')}
          aria-label={t('sampleGraphs.canvasLabel', { name: saved.name, count: points.length })}
          aria-describedby={`${ids}-keys`}
          className="relative inline-block shrink-0 cursor-crosshair self-start rounded-md border border-line bg-white outline-none focus-visible:ring-2 focus-visible:ring-[var(--focus)]"
          onKeyDown={onKey}
          onClick={onClick}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          data-testid="sample-graph-canvas"
        >
          <img ref={imageRef} src={graph.url} alt={saved.name} draggable={false} className="block max-h-[62vh] max-w-full select-none rounded-md" />
          {focused && canManage && selected === null && (
            <span aria-hidden className="pointer-events-none absolute h-7 w-7 -translate-x-1/2 -translate-y-1/2" style={{ left: pct(cursor.x), top: pct(cursor.y) }} data-testid="sample-graph-crosshair">
              <span className="absolute left-1/2 top-0 h-full w-0.5 -translate-x-1/2 bg-[var(--focus)]" />
              <span className="absolute left-0 top-1/2 h-0.5 w-full -translate-y-1/2 bg-[var(--focus)]" />
            </span>
          )}
          {points.map((p, i) => (
            <span key={i} aria-hidden data-point-index={i} data-selected={i === selected || undefined}
              className={`pointer-events-none absolute h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow ${i === selected ? 'outline outline-2 outline-offset-2 outline-[var(--focus)]' : ''}`}
              style={{ left: pct(p.x), top: pct(p.y), backgroundColor: p.color }} />
          ))}
        </div>
        <div className="w-56 shrink-0 text-[13px]">
          <p id={`${ids}-keys`} className="mb-3 text-xs leading-5 text-fg-muted">{t(canManage ? 'sampleGraphs.keys' : 'sampleGraphs.keysRead')}</p>
          <p className="mb-1 font-medium">{t('sampleGraphs.pointsCount', { count: points.length })}</p>
          {point && selected !== null ? (
            <div className="rounded-md border border-line bg-surface p-2" data-testid="sample-graph-point">
              <p className="mb-2 tabular-nums text-xs text-fg-muted">{t('sampleGraphs.pointAt', { n: selected + 1, x: Math.round(point.x * 100), y: Math.round(point.y * 100) })}</p>
              <label htmlFor={`${ids}-label`} className={field}>{t('sampleGraphs.label')}</label>
              <input id={`${ids}-label`} className="input" value={point.label ?? ''} maxLength={32} disabled={!canManage}
                onChange={(e) => change(selected, { label: e.target.value || undefined })} />
              {canManage && <button type="button" className="btn btn-ghost mt-2 h-6 px-2 text-xs text-danger" onClick={removePoint}>{t('sampleGraphs.removePoint')}</button>}
            </div>
          ) : (
            <p className="text-xs text-fg-muted">{t('sampleGraphs.noPoint')}</p>
          )}
        </div>
      </div>
    </div>
  );
}
