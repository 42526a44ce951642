/**
 * The notification lane (issue 32): a column at the right of the signed-in shell, beside the screen, that the layout
 * makes room for while corner toasts are up. Screens are laid out in what is left, so no toast ever lies over them
 * (the report workspace's patient bar and positive/negative switch, the consultation's submit button, the last row of
 * a table). The Toaster draws the corner toasts in the lane while one is mounted, and falls back to its own corner
 * (placed clear of `data-toast-avoid`) on screens without the shell: sign-in, the viewer, the calling screen, shared reports.
 */

/**
 * A toast's width in the lane: a quarter of the window, at least 280 and at most 400 px (core §2's width, from a
 * 1600 px window up); the lane adds 12 px either side.
 */
export const LANE_TOAST_WIDTH = 'clamp(280px, 25vw, 400px)';
export const LANE_WIDTH = `calc(${LANE_TOAST_WIDTH} + 24px)`;

let mounted = 0;
const listeners = new Set<() => void>();

/** Called by the lane when it mounts; the returned function unmounts it. */
export function mountLane(): () => void {
  mounted += 1;
  listeners.forEach((l) => l());
  return () => {
    mounted -= 1;
    listeners.forEach((l) => l());
  };
}

export const laneHost = {
  mounted: () => mounted > 0,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
