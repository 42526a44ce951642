// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { findMainControl, focusIsFree, watchMainFocus } from '@/lib/mainFocus';

/** Issue 32: a screen's marked control takes the free focus when it appears; a focus someone else chose is left alone. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the main control on arrival', () => {
  it('finds the first marked control that can take the focus', () => {
    document.body.innerHTML = '<main id="main"><input data-main-control disabled id="a"><div hidden><input data-main-control id="b"></div><input data-main-control id="c"><input data-main-control id="d"></main>';
    expect(findMainControl(document)?.id).toBe('c');
  });

  it('focuses a control drawn after the path changed, while the focus is free', async () => {
    document.body.innerHTML = '<main id="main" tabindex="-1"></main>';
    const stop = watchMainFocus(document, 60_000);
    await flush();
    expect(focusIsFree(document)).toBe(true);
    // The screen's data arrives: the form is drawn with its name field marked.
    document.getElementById('main')!.innerHTML = '<form><input id="name" data-main-control></form>';
    await flush();
    expect(document.activeElement?.id).toBe('name');
    stop();
  });

  it('leaves a focus the screen or the user chose, and waits for a dialog to close', async () => {
    document.body.innerHTML = '<main id="main"><button id="own">own</button></main>';
    document.getElementById('own')!.focus();
    const stop = watchMainFocus(document, 60_000);
    document.getElementById('main')!.insertAdjacentHTML('beforeend', '<input id="late" data-main-control>');
    await flush();
    expect(document.activeElement?.id).toBe('own');
    stop();

    document.body.innerHTML = '<dialog open><button>ok</button></dialog><main id="main"><input id="name" data-main-control></main>';
    const again = watchMainFocus(document, 60_000);
    await flush();
    expect(document.activeElement).toBe(document.body);
    document.querySelector('dialog')!.removeAttribute('open');
    await flush();
    expect(document.activeElement?.id).toBe('name');
    again();
  });
});
