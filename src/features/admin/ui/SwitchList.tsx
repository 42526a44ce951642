import { useRef, type KeyboardEvent } from 'react';
import { MAIN_CONTROL } from '@/lib/mainFocus';

export interface SwitchItem {
  key: string;
  label: string;
  hint?: string;
  on: boolean;
}

/**
 * Feature flags as a list of switches: one tab stop, ↑ ↓ (j k) move between them, Space or Enter turns the focused one
 * over. Each is a role="switch" button, so a screen reader says its state.
 */
export function SwitchList({ items, label, busyKey, onToggle, testId }: {
  items: readonly SwitchItem[];
  label: string;
  busyKey: string | null;
  onToggle: (key: string, on: boolean) => void;
  testId?: string;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const focusAt = (index: number) => listRef.current?.querySelectorAll<HTMLButtonElement>('[role=switch]')[index]?.focus();
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === 'ArrowDown' || event.key === 'j' ? 1 : event.key === 'ArrowUp' || event.key === 'k' ? -1 : 0;
    if (step !== 0) {
      event.preventDefault();
      focusAt(Math.max(0, Math.min(items.length - 1, index + step)));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      focusAt(event.key === 'Home' ? 0 : items.length - 1);
    }
  };
  return (
    <ul ref={listRef} aria-label={label} className="divide-y divide-line rounded-md border border-line bg-surface" data-testid={testId}>
      {items.map((item, index) => (
        <li key={item.key} className="flex items-center gap-3 px-3 py-2">
          <div className="min-w-0 flex-1">
            <div className="text-[13px] font-medium" id={`switch-${item.key}`}>{item.label}</div>
            {item.hint && <div className="text-xs text-fg-muted">{item.hint}</div>}
          </div>
          <button type="button" role="switch" aria-checked={item.on} aria-labelledby={`switch-${item.key}`} data-flag={item.key}
            tabIndex={index === 0 ? 0 : -1} {...(index === 0 ? MAIN_CONTROL : {})} aria-busy={busyKey === item.key}
            onKeyDown={(e) => onKeyDown(e, index)} onClick={() => busyKey !== item.key && onToggle(item.key, !item.on)}
            onFocus={(e) => {
              // Roving tab stop: the focused switch is the one Tab comes back to.
              for (const el of listRef.current?.querySelectorAll<HTMLButtonElement>('[role=switch]') ?? []) el.tabIndex = el === e.currentTarget ? 0 : -1;
            }}
            className={`relative h-5 w-9 shrink-0 rounded-full border transition-colors aria-busy:opacity-60 ${item.on ? 'border-accent bg-accent' : 'border-line-strong bg-sunken'}`}>
            <span aria-hidden="true" className={`absolute top-0.5 h-3.5 w-3.5 rounded-full bg-surface shadow transition-[left] ${item.on ? 'left-[1.15rem]' : 'left-0.5'}`} />
          </button>
        </li>
      ))}
    </ul>
  );
}
