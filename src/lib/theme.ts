import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../contract/constants';

export type Theme = 'light' | 'dark';
const listeners = new Set<() => void>();

function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The remembered theme, else the system's preference. index.html applies the same rule before first paint. */
export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEYS.theme);
    if (value === 'light' || value === 'dark') return value;
  } catch {
    // No storage: follow the system.
  }
  return systemTheme();
}

let current: Theme = typeof document === 'undefined' ? 'light' : storedTheme();

function apply(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

export function initTheme(): void {
  apply(current);
}

export function setTheme(theme: Theme): void {
  current = theme;
  try {
    localStorage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // Remembered for this visit only.
  }
  apply(theme);
  listeners.forEach((l) => l());
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
    () => current,
  );
  return [theme, setTheme];
}
