import type { ReactNode } from 'react';
import { OperationError } from '../transport/transport';

export function ScreenHeader({ title, description, actions }: { title: string; description: string; actions?: ReactNode }) {
  return (
    <header className="screen-header">
      <div>
        <h1>{title}</h1>
        <p className="muted">{description}</p>
      </div>
      {actions ? <div className="screen-actions">{actions}</div> : null}
    </header>
  );
}

export function Panel({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <div className="panel-head">
        <h2 id={id}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <h3>{title}</h3>
      <div className="muted">{children}</div>
    </div>
  );
}

/** An error that says what happened; the code is shown so it can be looked up. */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof OperationError ? error.code : undefined;
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title}</strong>
      <span>
        {message}
        {code ? <span className="muted"> (error {code})</span> : null}
      </span>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      Loading {what}…
    </div>
  );
}
