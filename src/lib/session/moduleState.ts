/**
 * Core §4: logging out clears "all module state". Features that keep state outside React
 * (caches, drafts, last-seen ids kept in memory) register a reset here; the session calls them all.
 */
const resets = new Set<() => void>();

export function registerModuleReset(reset: () => void): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

export function resetModuleState(): void {
  for (const reset of resets) {
    try {
      reset();
    } catch (err) {
      // One feature's broken reset must not keep the others' data alive.
      console.error('module reset failed', err);
    }
  }
}

/**
 * Work a feature must do before the logout call ends the account's tokens, while they still work (the report
 * feature removes the account's local drafts the server already holds). A task gets the account id; it must not
 * throw what it cannot handle and never decides whether the logout happens.
 */
export type LogoutTask = (accountId: number) => Promise<unknown> | void;
const logoutTasks = new Set<LogoutTask>();

export function registerLogoutTask(task: LogoutTask): () => void {
  logoutTasks.add(task);
  return () => logoutTasks.delete(task);
}

/** How long a logout waits for its tasks: signing out must not hang on a slow network. */
export const LOGOUT_TASKS_MAX_MS = 3000;

/** Runs every logout task for `accountId` and waits for them, at most `maxMs`; a failed or late task is left behind. */
export async function runLogoutTasks(accountId: number | null, maxMs = LOGOUT_TASKS_MAX_MS): Promise<void> {
  if (accountId === null || logoutTasks.size === 0) return;
  const all = Promise.allSettled([...logoutTasks].map(async (task) => task(accountId)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  await Promise.race([all, late]);
  clearTimeout(timer);
}
