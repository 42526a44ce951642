/** Window/level presets (width and centre in Hounsfield units), the usual ones of a CT reading room. */
export interface WindowPreset {
  id: 'default' | 'softTissue' | 'lung' | 'bone' | 'brain';
  /** null: the image's own window (from its header, or its pixel range). */
  window: { width: number; center: number } | null;
  /** Shown for every modality, or only where pixel values are Hounsfield units. */
  modalities: 'all' | readonly string[];
}

export const WINDOW_PRESETS: readonly WindowPreset[] = [
  { id: 'default', window: null, modalities: 'all' },
  { id: 'softTissue', window: { width: 400, center: 40 }, modalities: ['CT'] },
  { id: 'lung', window: { width: 1500, center: -600 }, modalities: ['CT'] },
  { id: 'bone', window: { width: 2000, center: 500 }, modalities: ['CT'] },
  { id: 'brain', window: { width: 80, center: 40 }, modalities: ['CT'] },
];

export function presetsFor(modality: string | null): WindowPreset[] {
  return WINDOW_PRESETS.filter((p) => p.modalities === 'all' || (modality !== null && p.modalities.includes(modality)));
}

export interface VoiRange {
  lower: number;
  upper: number;
}

export const toRange = ({ width, center }: { width: number; center: number }): VoiRange => ({ lower: center - width / 2, upper: center + width / 2 });
export const toWindow = ({ lower, upper }: VoiRange) => ({ width: upper - lower, center: (upper + lower) / 2 });
