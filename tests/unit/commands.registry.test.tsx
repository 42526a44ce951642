// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CommandRegistry,
  CommandScope,
  CommandsProvider,
  useAvailableCommands,
  useCommands,
  useKeyBindings,
  useScope,
  type CommandSpec,
  type Scope,
} from '@/lib/commands';

afterEach(cleanup);

/** A keydown as a browser sends it: tinykeys needs both key and code. */
function press(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const code = /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : key === '?' ? 'Slash' : key;
  const event = new KeyboardEvent('keydown', { key, code, bubbles: true, cancelable: true, ...init });
  act(() => {
    target.dispatchEvent(event);
  });
  return event;
}

interface Ctx {
  calls: string[];
  allowed?: boolean;
}

function spec(id: string, scope: Scope, shortcut: string, extra: Partial<CommandSpec<Ctx>> = {}): CommandSpec<Ctx> {
  return { id, label: `test.${id}`, scope, shortcut, run: (ctx) => void ctx.calls.push(id), ...extra };
}

function Feature({ scope, specs, ctx, children }: { scope?: Scope; specs: CommandSpec<Ctx>[]; ctx: Ctx; children?: ReactNode }) {
  useCommands(specs, ctx);
  return scope ? <CommandScope scope={scope}>{children}</CommandScope> : <>{children}</>;
}

function Dialog({ specs, ctx }: { specs: CommandSpec<Ctx>[]; ctx: Ctx }) {
  useScope('dialog');
  useCommands(specs, ctx);
  return null;
}

function Keys() {
  useKeyBindings();
  return null;
}

function Listing() {
  const ids = useAvailableCommands().map((c) => c.id);
  return <output data-testid="listing">{ids.join(',')}</output>;
}

function mount(children: ReactNode, registry = new CommandRegistry()) {
  const utils = render(
    <CommandsProvider registry={registry}>
      <Keys />
      {children}
      <Listing />
    </CommandsProvider>,
  );
  const listing = () => utils.getByTestId('listing').textContent?.split(',').filter(Boolean) ?? [];
  return { ...utils, registry, listing };
}

const globalSpecs = [spec('nav.profile', 'global', 'g p'), spec('palette.open', 'global', '$mod+k')];
const worklistSpecs = [spec('worklist.next', 'worklist', 'j'), spec('worklist.export', 'worklist', 'Alt+e')];
const dialogSpecs = [spec('dialog.confirm', 'dialog', 'y')];

describe('scopes', () => {
  it('fires a scoped command only while its scope is on the stack', () => {
    const ctx: Ctx = { calls: [] };
    const { rerender } = mount(<Feature specs={worklistSpecs} ctx={ctx} />);
    press(document.body, 'j');
    expect(ctx.calls).toEqual([]);

    rerender(
      <CommandsProvider registry={new CommandRegistry()}>
        <Keys />
        <Feature scope="worklist" specs={worklistSpecs} ctx={ctx} />
      </CommandsProvider>,
    );
    press(document.body, 'j');
    expect(ctx.calls).toEqual(['worklist.next']);
  });

  it('lists only the commands of active scopes', () => {
    const ctx: Ctx = { calls: [] };
    function Screen() {
      const [onWorklist, setOnWorklist] = useState(false);
      return (
        <>
          <button onClick={() => setOnWorklist((v) => !v)}>toggle</button>
          <Feature specs={globalSpecs} ctx={ctx} />
          <Feature scope={onWorklist ? 'worklist' : undefined} specs={worklistSpecs} ctx={ctx} />
        </>
      );
    }
    const { listing, getByText } = mount(<Screen />);
    expect(listing()).toEqual(['nav.profile', 'palette.open']);
    act(() => getByText('toggle').click());
    expect(listing()).toEqual(['nav.profile', 'palette.open', 'worklist.next', 'worklist.export']);
  });

  it('masks the plain keys of lower scopes while a dialog is open, but not their modified keys', () => {
    const ctx: Ctx = { calls: [] };
    function Screen({ dialog }: { dialog: boolean }) {
      return (
        <Feature scope="worklist" specs={worklistSpecs} ctx={ctx}>
          <Feature specs={globalSpecs} ctx={ctx} />
          {dialog && <Dialog specs={dialogSpecs} ctx={ctx} />}
        </Feature>
      );
    }
    const registry = new CommandRegistry();
    const { rerender } = mount(<Screen dialog />, registry);
    press(document.body, 'j');
    press(document.body, 'g');
    press(document.body, 'p');
    press(document.body, 'y');
    press(document.body, 'e', { altKey: true });
    press(document.body, 'k', { ctrlKey: true });
    expect(ctx.calls).toEqual(['dialog.confirm', 'worklist.export', 'palette.open']);

    ctx.calls.length = 0;
    rerender(
      <CommandsProvider registry={registry}>
        <Keys />
        <Screen dialog={false} />
      </CommandsProvider>,
    );
    press(document.body, 'j');
    press(document.body, 'y');
    expect(ctx.calls).toEqual(['worklist.next']);
  });

  it('silences plain keys under a <dialog> that did not push the dialog scope, but not modified ones', () => {
    const ctx: Ctx = { calls: [] };
    const { container } = mount(
      <Feature scope="worklist" specs={[...globalSpecs, ...worklistSpecs]} ctx={ctx}>
        <dialog open>
          <button type="button">Keep</button>
        </dialog>
      </Feature>,
    );
    const button = container.querySelector('dialog button')!;
    press(button, 'j');
    press(button, 'g');
    press(button, 'p');
    press(button, 'e', { altKey: true });
    expect(ctx.calls).toEqual(['worklist.export']);
  });

  it('keeps a dialog above the screen even when the dialog pushed its scope first', () => {
    const registry = new CommandRegistry();
    const popDialog = registry.pushScope('dialog');
    registry.pushScope('worklist');
    expect(registry.scopes()).toEqual(['global', 'worklist', 'dialog']);
    popDialog();
    expect(registry.scopes()).toEqual(['global', 'worklist']);
  });

  it('stacks a nested scope above the one enclosing it, though its effects ran first', () => {
    const { registry } = mount(
      <Feature scope="editor" specs={[]} ctx={{ calls: [] }}>
        <Feature scope="viewer" specs={[]} ctx={{ calls: [] }} />
      </Feature>,
    );
    expect(registry.scopes()).toEqual(['global', 'editor', 'viewer']);
  });

  it('gives a key to the topmost scope that claims it', () => {
    const ctx: Ctx = { calls: [] };
    mount(
      <Feature scope="worklist" specs={[spec('worklist.close', 'worklist', 'x')]} ctx={ctx}>
        <Feature scope="viewer" specs={[spec('viewer.close', 'viewer', 'x')]} ctx={ctx} />
      </Feature>,
    );
    press(document.body, 'x');
    expect(ctx.calls).toEqual(['viewer.close']);
  });
});

describe('text fields', () => {
  function Fields() {
    return (
      <>
        <input aria-label="search" />
        <textarea aria-label="notes" />
        <select aria-label="modality">
          <option>CT</option>
        </select>
        <div aria-label="findings" contentEditable suppressContentEditableWarning>
          <p>text</p>
        </div>
        <input aria-label="selected" type="checkbox" />
      </>
    );
  }

  it('never fires a plain shortcut or a letter sequence from an input, textarea, select or rich text', () => {
    const ctx: Ctx = { calls: [] };
    const { getByLabelText } = mount(
      <Feature scope="worklist" specs={[...globalSpecs, ...worklistSpecs]} ctx={ctx}>
        <Fields />
      </Feature>,
    );
    for (const label of ['search', 'notes', 'modality', 'findings']) {
      const field = getByLabelText(label);
      const typed = [press(field, 'g'), press(field, 'p'), press(field, 'j')];
      expect(typed.every((event) => !event.defaultPrevented)).toBe(true);
    }
    press(getByLabelText('findings').querySelector('p')!, 'j');
    expect(ctx.calls).toEqual([]);
  });

  it('fires modified shortcuts from a text field when their scope is active', () => {
    const ctx: Ctx = { calls: [] };
    const { getByLabelText } = mount(
      <Feature scope="worklist" specs={[...globalSpecs, ...worklistSpecs]} ctx={ctx}>
        <Fields />
      </Feature>,
    );
    const event = press(getByLabelText('search'), 'k', { ctrlKey: true });
    press(getByLabelText('findings'), 'e', { altKey: true });
    expect(ctx.calls).toEqual(['palette.open', 'worklist.export']);
    expect(event.defaultPrevented).toBe(true);
  });

  it('lets letters through on a focused checkbox, which takes no text', () => {
    const ctx: Ctx = { calls: [] };
    const { getByLabelText } = mount(
      <Feature scope="worklist" specs={worklistSpecs} ctx={ctx}>
        <Fields />
      </Feature>,
    );
    press(getByLabelText('selected'), 'j');
    expect(ctx.calls).toEqual(['worklist.next']);
  });

  it('runs a letter sequence typed outside text fields', () => {
    const ctx: Ctx = { calls: [] };
    mount(<Feature specs={globalSpecs} ctx={ctx} />);
    press(document.body, 'g');
    press(document.body, 'p');
    expect(ctx.calls).toEqual(['nav.profile']);
  });

  it('ignores keys pressed while an input method is composing', () => {
    const ctx: Ctx = { calls: [] };
    mount(<Feature scope="worklist" specs={worklistSpecs} ctx={ctx} />);
    press(document.body, 'j', { isComposing: true });
    expect(ctx.calls).toEqual([]);
  });
});

describe('when() predicates', () => {
  const guarded = [spec('nav.registry', 'global', 'g r', { when: (ctx) => ctx.allowed === true })];

  it('hides a command whose predicate fails and leaves its keys to the browser', () => {
    const ctx: Ctx = { calls: [], allowed: false };
    const { listing } = mount(<Feature specs={guarded} ctx={ctx} />);
    expect(listing()).toEqual([]);
    press(document.body, 'g');
    const event = press(document.body, 'r');
    expect(ctx.calls).toEqual([]);
    expect(event.defaultPrevented).toBe(false);
  });

  it('reads the latest context when the key is pressed', () => {
    const calls: string[] = [];
    const { rerender, registry } = mount(<Feature specs={guarded} ctx={{ calls, allowed: false }} />);
    rerender(
      <CommandsProvider registry={registry}>
        <Keys />
        <Feature specs={guarded} ctx={{ calls, allowed: true }} />
      </CommandsProvider>,
    );
    press(document.body, 'g');
    press(document.body, 'r');
    expect(calls).toEqual(['nav.registry']);
    expect(registry.available().map((c) => c.id)).toEqual(['nav.registry']);
  });

  it('falls through to a lower scope when the top command cannot run', () => {
    const ctx: Ctx = { calls: [] };
    mount(
      <Feature scope="worklist" specs={[spec('worklist.close', 'worklist', 'x')]} ctx={ctx}>
        <Feature scope="viewer" specs={[spec('viewer.close', 'viewer', 'x', { when: () => false })]} ctx={ctx} />
      </Feature>,
    );
    press(document.body, 'x');
    expect(ctx.calls).toEqual(['worklist.close']);
  });
});

describe('registration', () => {
  it('unregisters a feature’s commands and keys when it unmounts', () => {
    const ctx: Ctx = { calls: [] };
    function Screen() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button onClick={() => setShown(false)}>leave</button>
          {shown && <Feature scope="worklist" specs={worklistSpecs} ctx={ctx} />}
        </>
      );
    }
    const { listing, getByText, registry } = mount(<Screen />);
    expect(listing()).toEqual(['worklist.next', 'worklist.export']);
    act(() => getByText('leave').click());
    expect(listing()).toEqual([]);
    expect(registry.registered()).toEqual([]);
    press(document.body, 'j');
    expect(ctx.calls).toEqual([]);
  });

  it('removes the window binding when the bindings unmount', () => {
    const ctx: Ctx = { calls: [] };
    const { unmount } = mount(<Feature scope="worklist" specs={worklistSpecs} ctx={ctx} />);
    unmount();
    press(document.body, 'j');
    expect(ctx.calls).toEqual([]);
  });

  it('fires a held key once unless the command asks to repeat', () => {
    const ctx: Ctx = { calls: [] };
    const specs = [spec('worklist.next', 'worklist', 'j', { repeat: true }), spec('worklist.open', 'worklist', 'o')];
    mount(<Feature scope="worklist" specs={specs} ctx={ctx} />);
    press(document.body, 'j');
    press(document.body, 'j', { repeat: true });
    press(document.body, 'o');
    press(document.body, 'o', { repeat: true });
    expect(ctx.calls).toEqual(['worklist.next', 'worklist.next', 'worklist.open']);
  });

  it('keeps the latest registration when two components register one id', () => {
    const registry = new CommandRegistry();
    const first = vi.fn();
    const second = vi.fn();
    registry.register([{ id: 'x', label: 'x', scope: 'global', when: () => true, run: first }]);
    registry.register([{ id: 'x', label: 'x', scope: 'global', when: () => true, run: second }]);
    expect(registry.available()).toHaveLength(1);
    registry.available()[0].run();
    expect(second).toHaveBeenCalled();
    expect(first).not.toHaveBeenCalled();
  });
});
