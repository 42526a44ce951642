import type { ReactNode } from 'react';

/** The common frame of the error pages: a code, a title, a sentence, and one way on. */
export function ErrorPage({ code, title, body, children }: { code?: string; title: string; body: string; children?: ReactNode }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-6 py-16">
      <div className="max-w-md text-center">
        {code && <p className="mb-2 font-mono text-sm tracking-wider text-fg-subtle">{code}</p>}
        <h1 className="mb-2 text-xl font-semibold text-fg">{title}</h1>
        <p className="mb-6 text-fg-muted">{body}</p>
        <div className="flex justify-center gap-2">{children}</div>
      </div>
    </div>
  );
}
