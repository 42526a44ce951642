import { columnOrderingFeature, columnResizingFeature, columnSizingFeature, columnVisibilityFeature, tableFeatures, type Row } from '@tanstack/react-table';
import type { CSSProperties } from 'react';
import { COLUMN_SPECS, type ColumnSpec } from './columns';
import type { ExamRow } from './types';

/** The exam grid's table: its measures, its TanStack features and the column specs by id (the grid and its rows share them). */
export const ROW_HEIGHT = 28;
export const HEADER_HEIGHT = 30;

export const features = tableFeatures({ columnSizingFeature, columnResizingFeature, columnOrderingFeature, columnVisibilityFeature });
export type Features = typeof features;
export type ExamTableRow = Row<Features, ExamRow>;
export const SPEC_BY_ID = new Map(COLUMN_SPECS.map((spec) => [spec.id, spec]));

export function alignOf(spec: ColumnSpec): CSSProperties['justifyContent'] {
  return spec.align === 'end' ? 'flex-end' : spec.align === 'center' ? 'center' : 'flex-start';
}
