import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateNode } from '../../../../contract/reports';
import type { GroupTemplateTree, TemplateTreeAnswer } from '../../../../contract/templates';
import { http } from '@/lib/http';
import { registerModuleReset } from '@/lib/session';

/**
 * An organisation's writing templates, with its group's shared tree when the group has one (isGroupKb), fetched
 * once per visit and shared by the slash picker and the palette. Module state, so it is cleared at logout with the
 * rest (core §4), and by the template management screen after each change (invalidateTemplates).
 */
export interface TemplateTrees {
  items: TemplateNode[];
  group: GroupTemplateTree | null;
}

const cache = new Map<number, Promise<TemplateTrees>>();
registerModuleReset(() => cache.clear());

/** Forgets the fetched trees, so the next picker asks again (after a template was added or changed). */
export function invalidateTemplates(): void {
  cache.clear();
}

export function loadTemplates(bucketId: number): Promise<TemplateTrees> {
  let pending = cache.get(bucketId);
  if (!pending) {
    pending = http.get<TemplateTreeAnswer>('report-templates', { query: { bucketId } }).then((page) => ({ items: page.items, group: page.group ?? null }));
    // A failure is not remembered: the next opening of the picker asks again.
    pending.catch(() => cache.delete(bucketId));
    cache.set(bucketId, pending);
  }
  return pending;
}

/**
 * The picker's roots: the organisation's tree, then the group's shared tree as one more folder at the bottom (an id
 * below zero, which no stored template has).
 */
export function withGroupFolder(trees: TemplateTrees, folderName: string): TemplateNode[] {
  const { group } = trees;
  if (!group || group.items.length === 0) return trees.items;
  const folder: TemplateNode = {
    id: -group.groupId, bucketId: null, groupId: group.groupId, parentId: null, name: folderName, isFolder: true,
    modality: null, bodyPart: null, finding: '', diagnosis: '', sort: Number.MAX_SAFE_INTEGER, children: group.items,
  };
  return [...trees.items, folder];
}

export interface TemplatesState {
  roots: TemplateNode[] | null;
  error: unknown;
}

/** The tree of `bucketId` (and its group's) once `enabled` (the user may write); null while loading. */
export function useTemplates(bucketId: number | null, enabled: boolean): TemplatesState & { retry: () => void } {
  const { t } = useTranslation();
  const [state, setState] = useState<{ trees: TemplateTrees | null; error: unknown }>({ trees: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (bucketId === null || !enabled) return;
    let live = true;
    loadTemplates(bucketId).then(
      (trees) => live && setState({ trees, error: null }),
      (error: unknown) => live && setState({ trees: null, error }),
    );
    return () => {
      live = false;
    };
  }, [bucketId, enabled, attempt]);
  const groupName = state.trees?.group?.groupName ?? '';
  const roots = useMemo(
    () => (state.trees ? withGroupFolder(state.trees, t('templates.picker.groupFolder', { name: groupName })) : null),
    [state.trees, t, groupName],
  );
  return { roots, error: state.error, retry: () => setAttempt((n) => n + 1) };
}
