import { describe, expect, it } from 'vitest';
import type { SeriesList } from '../../contract/viewer';
import { presetsFor, toRange, toWindow } from '../../src/features/viewer/presets';
import { clampIndex, stacksOf } from '../../src/features/viewer/stack';

const instance = (id: number, frames: number, instanceNumber: number) => ({
  id, sopInstanceUid: `1.2.${id}`, sopClassUid: null, instanceNumber, rows: 16, columns: 16, frames,
  transferSyntaxUid: '1.2.840.10008.1.2.5', size: 100, path: `instances/${id}/file`,
});

const list: SeriesList = {
  examId: 7,
  patientName: 'Wang XiaoDong=王小东',
  patientId: 'P7',
  studyInstanceUids: ['1.2'],
  instanceCount: 3,
  series: [
    { seriesInstanceUid: '1.2.1', seriesNumber: 1, seriesDescription: 'Cine', modality: 'US', instances: [instance(10, 3, 1)] },
    { seriesInstanceUid: '1.2.2', seriesNumber: 2, seriesDescription: null, modality: 'CT', instances: [instance(11, 1, 1), instance(12, 1, 2)] },
    { seriesInstanceUid: '1.2.3', seriesNumber: 3, seriesDescription: 'Empty', modality: 'SR', instances: [] },
  ],
};

describe('viewer stacks', () => {
  it('gives each frame of a multi-frame instance its own image, counted from 1 for the loader', () => {
    const [cine] = stacksOf(list, 'tok', 'http://host/api/v1/');
    expect(cine!.images.map((i) => i.imageId)).toEqual([
      'wadouri:http://host/api/v1/instances/10/file?token=tok&frame=1',
      'wadouri:http://host/api/v1/instances/10/file?token=tok&frame=2',
      'wadouri:http://host/api/v1/instances/10/file?token=tok&frame=3',
    ]);
    expect(cine!.images.map((i) => [i.instanceId, i.frame, i.frames])).toEqual([[10, 0, 3], [10, 1, 3], [10, 2, 3]]);
  });

  it('keeps single-frame instances as one image each, in the server order, and drops series without images', () => {
    const stacks = stacksOf(list, 'a+b/c', 'http://host/api/v1/');
    expect(stacks.map((s) => s.series.seriesNumber)).toEqual([1, 2]);
    expect(stacks[1]!.images.map((i) => i.imageId)).toEqual([
      'wadouri:http://host/api/v1/instances/11/file?token=a%2Bb%2Fc',
      'wadouri:http://host/api/v1/instances/12/file?token=a%2Bb%2Fc',
    ]);
  });

  it('holds scrolling at both ends of the stack', () => {
    expect(clampIndex(0, -1, 4)).toBe(0);
    expect(clampIndex(2, 5, 4)).toBe(3);
    expect(clampIndex(1, 1, 4)).toBe(2);
    expect(clampIndex(0, Infinity, 0)).toBe(0);
  });
});

describe('window presets', () => {
  it('offers the CT windows only for CT, the image default everywhere', () => {
    expect(presetsFor('CT').map((p) => p.id)).toEqual(['default', 'softTissue', 'lung', 'bone', 'brain']);
    expect(presetsFor('MR').map((p) => p.id)).toEqual(['default']);
    expect(presetsFor(null).map((p) => p.id)).toEqual(['default']);
  });

  it('turns width and centre into a value range and back', () => {
    expect(toRange({ width: 400, center: 40 })).toEqual({ lower: -160, upper: 240 });
    expect(toWindow({ lower: -1350, upper: 150 })).toEqual({ width: 1500, center: -600 });
  });
});
