import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab<Id extends string> {
  id: Id;
  label: string;
  render: () => ReactNode;
}

/**
 * WAI-ARIA tabs: ←/→ (and Home/End) move between tabs and show them, Tab goes into the panel. Only the
 * shown panel is mounted, so a tab's data loads when it is first looked at.
 */
export function SideTabs<Id extends string>({ tabs, selected, onSelect, label }: { tabs: Tab<Id>[]; selected: Id; onSelect: (id: Id) => void; label: string }) {
  const id = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(0, tabs.findIndex((tab) => tab.id === selected));
  const current = tabs[index];

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = (moves[event.key]! + tabs.length) % tabs.length;
    onSelect(tabs[next]!.id);
    buttons.current[next]?.focus();
  };

  return (
    <div className="flex min-h-0 flex-col">
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-x-0.5 shadow-[inset_0_-1px_0_var(--line)]" onKeyDown={onKeyDown}>
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            id={`${id}-tab-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={i === index}
            aria-controls={`${id}-panel`}
            tabIndex={i === index ? 0 : -1}
            className={`shrink-0 border-b-2 px-2 py-1.5 text-sm whitespace-nowrap outline-offset-[-2px] ${i === index ? 'border-accent font-medium text-fg' : 'border-transparent text-fg-muted hover:text-fg'}`}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current && (
        <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${current.id}`} tabIndex={0} className="min-h-0 flex-1 pt-2 outline-offset-[-2px]" data-tabpanel={current.id}>
          {current.render()}
        </div>
      )}
    </div>
  );
}
