import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { OperationError } from '../transport/transport';
import { useAnnounce } from './announcer';

/** Set when the screen changes: the next screen's heading takes focus once it is drawn. */
let headingWanted = false;

/** Asks the next screen heading drawn to take focus (a screen switch: a screen reader then says where it is). */
export function focusNextHeading(): void {
  headingWanted = true;
}

export function ScreenHeader({ title, description, actions }: { title: string; description: string; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    if (!headingWanted) return;
    headingWanted = false;
    heading.current?.focus();
  }, []);
  return (
    <header className="screen-header">
      <div>
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
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
        {/* Focusable by script only: where focus goes when the control it was on goes (app/use-focus-rescue.ts). */}
        <h2 id={id} tabIndex={-1}>
          {title}
        </h2>
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

/**
 * An error that says what happened; the code is shown so it can be looked up. It is said in the
 * app's polite live region when it appears (not as an alert of its own, which would be said twice).
 */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof OperationError ? error.code : undefined;
  useAnnounce(`${title}: ${message}`);
  return (
    <div className="notice notice-error">
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
