import type { Page } from '@playwright/test';

/** One element whose text does not fit its box. */
export interface Overflow {
  screen: string;
  /** A short selector-like name: tag, test id or role, classes. */
  element: string;
  text: string;
  /** The box's width and the width its content needs (px). */
  width: number;
  needs: number;
}

/**
 * The labels, badges, buttons, table headers and cells, form hints and inputs of the page as it is now whose text is
 * wider than their box (scrollWidth > clientWidth + 1), cut off or running into their neighbours. Allowed: scrolling
 * boxes (overflow auto/scroll: a table's scroller, an editor), text that ends in an ellipsis and says itself whole
 * in a title (or aria-label), hidden and screen-reader-only elements, the image viewer and editors, and the corner's
 * notices (toasts: their own layout). A list box's chosen text is measured against its box less the browser's arrow.
 * In Tibetan, text set tighter than 1.6 line heights is named too: its stacks run out of their box (styles.css).
 */
export async function overflowFindings(page: Page, screen: string): Promise<Overflow[]> {
  const found = await page.evaluate(() => {
    const out: { el: Element; element: string; text: string; width: number; needs: number }[] = [];
    const describe = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const role = el.getAttribute('role');
      const classes = typeof el.className === 'string' ? el.className.split(/\s+/).filter((c) => c && !c.includes(':')).slice(0, 4).join('.') : '';
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${role ? `[role=${role}]` : ''}${classes ? `.${classes}` : ''}`;
    };
    const canvas = document.createElement('canvas').getContext('2d')!;
    const textWidth = (text: string, style: CSSStyleDeclaration) => {
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return Math.ceil(canvas.measureText(text).width);
    };
    const px = (value: string) => Number.parseFloat(value) || 0;
    const tibetan = /[\u0F00-\u0FFF]/;
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      if (el.closest('[data-testid=viewer-viewport], .ProseMirror, [aria-hidden=true], .sr-only, svg, canvas, script, style, [role=status][aria-live], section[data-corner]')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.display === 'contents' || style.visibility === 'hidden') continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      const label = (el.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 40);
      // A list box shows its chosen option's text in a box of its own: measured, as scrollWidth does not tell.
      if (el instanceof HTMLSelectElement) {
        const shown = el.selectedOptions[0]?.text ?? '';
        // Chromium draws its own arrow inside the box unless the list box is restyled (appearance: none).
        const arrow = style.appearance === 'none' ? 0 : 20;
        const room = el.clientWidth - px(style.paddingLeft) - px(style.paddingRight) - arrow;
        const needs = textWidth(shown, style);
        // A few pixels of leeway: the arrow's width is the browser's and the measure is the canvas's, not the list box's.
        if (shown && needs > room + 4) out.push({ el, element: describe(el), text: shown, width: Math.round(room), needs });
        continue;
      }
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) continue;
      if (!label) continue;
      if (style.display !== 'inline' && !/(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        // Cut on purpose: an ellipsis, with the whole text in the element's (or its cell's) title or name.
        const whole = el.title || el.getAttribute('aria-label') || el.parentElement?.title;
        if (!(style.textOverflow === 'ellipsis' && whole)) out.push({ el, element: describe(el), text: label, width: el.clientWidth, needs: el.scrollWidth });
      }
      // Tibetan stacks its letters above and below the line: a line height under 1.6 of the font's size cuts them, or
      // runs them into the line below (a badge or hint set at leading-none or a fixed 16 px line).
      const ownText = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && tibetan.test(n.textContent ?? ''));
      if (ownText && style.lineHeight !== 'normal' && px(style.lineHeight) < 1.6 * px(style.fontSize) - 0.5) {
        out.push({ el, element: `${describe(el)} (line height ${style.lineHeight} for ${style.fontSize} Tibetan)`, text: label, width: Math.round(rect.width), needs: Math.round(rect.width) });
      }
    }
    // The innermost element that overflows is named, not every box around it.
    return out
      .filter((f) => !out.some((other) => other !== f && f.el.contains(other.el) && !other.element.includes('line height')))
      .map(({ el: _el, ...rest }) => rest);
  });
  return found.map((f) => ({ screen, ...f }));
}

export const formatOverflows = (found: readonly Overflow[]) =>
  found.map((f) => `${f.screen}: ${f.element} "${f.text}" is ${f.width}px wide, needs ${f.needs}px`).join('\n');
