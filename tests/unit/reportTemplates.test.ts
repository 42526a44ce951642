import { describe, expect, it } from 'vitest';
import type { TemplateNode } from '../../contract/reports';
import { initiallyOpen, preselect, searchTemplates, visibleRows } from '@/features/report/templates/templateTree';

let nextId = 1;
function node(name: string, over: Partial<TemplateNode> = {}, children: TemplateNode[] = []): TemplateNode {
  const id = nextId++;
  return {
    id, bucketId: 1, groupId: null, parentId: null, name, isFolder: children.length > 0 || !!over.isFolder, modality: null, bodyPart: null,
    finding: '', diagnosis: '', sort: 0, ...over, children: children.map((c) => ({ ...c, parentId: id })),
  };
}

const chest = node('胸部正常', { modality: 'CT', bodyPart: '胸部', finding: '<p>双肺纹理清晰。</p>', diagnosis: '<p>胸部未见明显异常。</p>' });
const head = node('头颅正常', { modality: 'CT', bodyPart: '头颅', finding: '<p>脑实质密度均匀。</p>', diagnosis: '<p>颅脑未见异常。</p>' });
const nodule = node('肺结节随访', { modality: 'CT', bodyPart: '胸部', finding: '<p>右肺上叶见磨玻璃结节。</p>', diagnosis: '<p>建议随访。</p>' });
const ct = node('CT', { modality: 'CT', isFolder: true }, [chest, head, nodule]);
const knee = node('膝关节正常', { modality: 'MR', bodyPart: '膝关节', finding: '<p>半月板形态正常。</p>' });
const mr = node('MR', { modality: 'MR', isFolder: true }, [knee]);
const roots = [ct, mr];

describe('template picker rows', () => {
  it('shows only the folders until one is opened, then its templates one level deeper', () => {
    expect(visibleRows(roots, new Set()).map((r) => r.node.name)).toEqual(['CT', 'MR']);
    const opened = visibleRows(roots, new Set([ct.id]));
    expect(opened.map((r) => [r.node.name, r.level])).toEqual([['CT', 1], ['胸部正常', 2], ['头颅正常', 2], ['肺结节随访', 2], ['MR', 1]]);
  });

  it("opens the exam's modality folder first, and none for an unknown modality", () => {
    expect([...initiallyOpen(roots, 'MR')]).toEqual([mr.id]);
    expect([...initiallyOpen(roots, 'US')]).toEqual([]);
    expect([...initiallyOpen(roots, null)]).toEqual([]);
  });

  it('finds templates by name, body part or folder, name matches before text matches', () => {
    expect(searchTemplates(roots, '胸部').map((r) => r.node.name)).toEqual(['胸部正常', '肺结节随访']);
    expect(searchTemplates(roots, '结节').map((r) => r.node.name)).toEqual(['肺结节随访']);
    expect(searchTemplates(roots, 'mr').map((r) => r.node.name)).toEqual(['膝关节正常']);
  });

  it('finds a template by words of its text, with every word required, and names its folder', () => {
    const found = searchTemplates(roots, '半月板 形态');
    expect(found.map((r) => [r.node.name, r.path])).toEqual([['膝关节正常', ['MR']]]);
    expect(searchTemplates(roots, '半月板 结节')).toEqual([]);
  });

  it('does not match the markup around the text', () => {
    expect(searchTemplates(roots, '<p>')).toEqual([]);
  });
});

describe('template preselection', () => {
  const abdomen = node('腹部超声正常', { modality: 'US', bodyPart: '腹部' });
  const pelvis = node('妇科超声正常', { modality: 'US', bodyPart: '盆腔' });
  const thyroid = node('甲状腺超声', { bodyPart: '甲状腺' });
  const usGeneral = node('常规', { isFolder: true }, [abdomen, pelvis]);
  const us = node('US', { modality: 'US', isFolder: true }, [usGeneral, thyroid]);
  const tree = [ct, us, mr];

  it("prefers the exam's body part over the modality folder's first template (a gynaecology ultrasound)", () => {
    const chosen = preselect(tree, 'US', '盆腔');
    expect(chosen.active).toBe(pelvis.id);
    expect([...chosen.open].sort()).toEqual([us.id, usGeneral.id].sort());
  });

  it('matches a body part written a little differently, and a template that takes its modality from its folder', () => {
    expect(preselect(tree, 'US', ' 甲状腺 ').active).toBe(thyroid.id);
    expect(preselect(tree, 'MR', '膝关节/左').active).toBe(knee.id);
  });

  it('falls back to the modality folder when no template has the body part, and never crosses modalities', () => {
    expect(preselect(tree, 'US', '乳腺')).toEqual({ open: new Set([us.id]), active: thyroid.id });
    expect(preselect(tree, 'CT', '膝关节').active).toBe(chest.id);
  });
});
