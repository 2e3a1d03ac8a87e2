import { useState, type FormEvent } from 'react';
import { refusalTitle, useSignIn } from './api';

/**
 * Shown when the server answers that this browser has no session: sign in with one's own
 * management key (each change is then logged under its name), or open the link the server printed.
 * `ended` is the server's reason when a session stopped (revoked, expired).
 */
export function SignInScreen({ ended }: { ended: string | null }) {
  const [key, setKey] = useState('');
  const attempt = useSignIn(key, () => setKey(''));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim()) attempt.mutate();
  };
  return (
    <main className="centered">
      <div className="panel narrow sign-in">
        <h1>Sign in to Verdict</h1>
        <p className="muted">
          Sign in with your own management key: what you create, change or revoke is recorded under its name in the audit log. The key is sent once to this
          server and is not kept in this browser.
        </p>
        {ended ? (
          <div className="notice" role="status">
            {ended}
          </div>
        ) : null}
        <form className="stack-form" onSubmit={onSubmit}>
          <label htmlFor="sign-in-key">Management key</label>
          <input
            id="sign-in-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder="vd-…"
            autoFocus
          />
          <button type="submit" disabled={!key.trim() || attempt.isPending}>
            {attempt.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        {attempt.error ? (
          <div className="notice notice-error" role="alert">
            <strong>{refusalTitle(attempt.error)}</strong>
            <span>{attempt.error.message}</span>
          </div>
        ) : null}
        <p className="muted small">
          On the server's own machine you can instead open the link that <code>npm start</code> (or <code>npm run serve</code>) printed: it starts with{' '}
          <code>{window.location.origin}/?token=</code>.
        </p>
      </div>
    </main>
  );
}
