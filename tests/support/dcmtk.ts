import { execFile } from 'node:child_process';

/** dcmtk's command-line tools (echoscu, storescu, findscu...), run as a real modality or PACS would run them. */
export interface ToolRun { code: number; stdout: string; stderr: string }

export function dcmtk(tool: string, args: string[], opts: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(tool, args, { timeout: opts.timeoutMs ?? 30_000, env: { ...process.env, ...opts.env }, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}
