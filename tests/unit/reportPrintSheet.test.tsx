// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import type { PrintData } from '../../contract/reports';
import { keyImageColumns, PrintSheet } from '@/features/report/print/PrintSheet';

afterEach(cleanup);

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

function printData(keyImages: PrintData['keyImages']): PrintData {
  return {
    template: { id: 1, name: '标准报告单', titles: ['影像诊断报告单'], logo: null, stamp: null, signatureOf: 'approver', qrMode: 'none', exactTime: false, pageNumbers: false },
    qrText: null,
    organisation: { id: 1, name: '市第一人民医院放射科' },
    exam: {
      id: 70, patientName: '测试患者', patientId: 'P1', patientGender: 'M', visitAge: '42Y', patientDob: null, patientSource: null, inpatientId: null,
      bedNum: null, outpatientId: null, physicalExamId: null, accessionNumber: null, modality: 'CT', bodyPart: '胸部', studyDescription: null,
      clinicImpression: null, applyDept: null, examTime: '2026-11-20T01:00:00.000Z',
    },
    report: {
      id: 7, status: 'corrected', finding: '<p>双肺纹理清晰。</p>', diagnosis: '<p>未见异常。</p>', positive: null, criticalValue: null, bodypartCount: 1,
      submittedAt: null, approvedAt: null,
    },
    creator: { id: 2, name: '李明', signature: null },
    approver: { id: 4, name: '张建国', signature: null },
    signature: null,
    keyImages,
    templates: [],
  };
}

function sheet(data: PrintData, onKeyImageError = vi.fn()) {
  return render(
    <I18nextProvider i18n={i18n}>
      <PrintSheet data={data} qrUrl={null} onImageError={vi.fn()} onKeyImageError={onKeyImageError} />
    </I18nextProvider>,
  );
}

describe('key images on the print sheet', () => {
  it('draws them in their order between the conclusion and the signatures, with captions only where there are some', () => {
    const { container } = sheet(printData([
      { id: 11, url: '/api/v1/files?token=a', description: 'S2 I182' },
      { id: 12, url: 'https://bucket.example/k.png?X-Amz-Signature=b', description: null },
    ]));
    const figures = [...container.querySelectorAll('[data-print-key-image]')];
    expect(figures.map((f) => f.getAttribute('data-print-key-image'))).toEqual(['11', '12']);
    expect(figures.map((f) => f.querySelector('img')?.getAttribute('src'))).toEqual(['/api/v1/files?token=a', 'https://bucket.example/k.png?X-Amz-Signature=b']);
    expect(figures.map((f) => f.querySelector('figcaption')?.textContent ?? null)).toEqual(['S2 I182', null]);
    expect(screen.getByRole('img', { name: 'Key image 2' })).toBeTruthy();
    const order = [...container.querySelectorAll('h2, .print-foot')].map((n) => (n.classList.contains('print-foot') ? 'signatures' : n.textContent));
    expect(order).toEqual(['Findings', 'Conclusion', 'Key images', 'signatures']);
    expect(container.querySelector('.print-image-grid')?.getAttribute('data-columns')).toBe('2');
  });

  it('loads only addresses the logo check accepts: nothing for javascript:, SVG data or another scheme', () => {
    const { container } = sheet(printData([
      { id: 1, url: 'javascript:alert(1)', description: 'a' },
      { id: 2, url: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=', description: 'b' },
      { id: 3, url: '//evil.example/x.png', description: 'c' },
      { id: 4, url: '/api/v1/files?token=ok', description: 'd' },
    ]));
    expect([...container.querySelectorAll('.print-image img')].map((img) => img.getAttribute('src'))).toEqual(['/api/v1/files?token=ok']);
  });

  it('reports a key image that does not load, so the page can stop the print', () => {
    const failed = vi.fn();
    const { container } = sheet(printData([{ id: 1, url: '/api/v1/files?token=expired', description: null }]), failed);
    fireEvent.error(container.querySelector('.print-image img')!);
    expect(failed).toHaveBeenCalledTimes(1);
  });

  it('leaves the section out for a report without key images', () => {
    const { container } = sheet(printData([]));
    expect(container.querySelector('.print-images')).toBeNull();
    expect(screen.queryByText('Key images')).toBeNull();
  });

  it('puts two to a row for one, two or four images and three otherwise', () => {
    expect([1, 2, 3, 4, 5, 6].map(keyImageColumns)).toEqual([2, 2, 3, 2, 3, 3]);
  });
});

describe('the template on the print sheet', () => {
  const withTemplate = (patch: Partial<PrintData['template']>): PrintData => {
    const data = printData([]);
    return { ...data, template: { ...data.template, logo: '/api/v1/files?token=logo', stamp: '/api/v1/files?token=stamp', ...patch } };
  };
  const blockOf = (container: HTMLElement, label: string) => [...container.querySelectorAll('.print-sign')].find((b) => b.textContent?.includes(label))!;

  it('puts the stamp over the signature the template prints: the approver\'s, or the creator\'s', () => {
    const approver = sheet(withTemplate({ signatureOf: 'approver' }));
    expect(blockOf(approver.container, 'Approved by').querySelector('img.print-stamp')?.getAttribute('src')).toBe('/api/v1/files?token=stamp');
    expect(blockOf(approver.container, 'Reported by').querySelector('img.print-stamp')).toBeNull();
    approver.unmount();
    const creator = sheet(withTemplate({ signatureOf: 'creator' }));
    expect(blockOf(creator.container, 'Reported by').querySelector('img.print-stamp')).not.toBeNull();
    expect(blockOf(creator.container, 'Approved by').querySelector('img.print-stamp')).toBeNull();
    expect(creator.container.querySelector('img.print-logo-img')?.getAttribute('src')).toBe('/api/v1/files?token=logo');
  });

  it('draws the page mark only in the editor\'s preview and only when the template numbers pages', () => {
    const render1 = (pageMark: boolean, pageNumbers: boolean) => render(
      <I18nextProvider i18n={i18n}>
        <PrintSheet data={withTemplate({ pageNumbers })} qrUrl={null} onImageError={vi.fn()} onKeyImageError={vi.fn()} pageMark={pageMark} />
      </I18nextProvider>,
    );
    for (const [pageMark, pageNumbers, shown] of [[true, true, 1], [true, false, 0], [false, true, 0]] as const) {
      const { container, unmount } = render1(pageMark, pageNumbers);
      expect(container.querySelectorAll('.print-page-mark')).toHaveLength(shown);
      unmount();
    }
  });
});
