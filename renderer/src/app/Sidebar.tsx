import { useQuery } from '@tanstack/react-query';
import { appInfoQuery, transportKind } from '../features/settings';
import { SessionBadge } from '../features/session';
import { SCREENS, type ScreenId } from './routes';

/** The screens in the order of the work, each with its Alt+number; the keyboard shortcuts one press away. */
export function Sidebar({ screen, collapsed, onToggle, onShortcuts }: { screen: ScreenId; collapsed: boolean; onToggle: () => void; onShortcuts: () => void }) {
  const info = useQuery(appInfoQuery());
  return (
    <nav className="sidebar" aria-label="Screens">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          V
        </span>
        <span className="brand-name">Verdict</span>
        <button
          type="button"
          className="sidebar-toggle secondary"
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}
          onClick={onToggle}
        >
          {collapsed ? '»' : '«'}
        </button>
      </div>
      <ul>
        {SCREENS.map((s) => (
          <li key={s.id}>
            <a href={`#/${s.id}`} aria-current={s.id === screen ? 'page' : undefined} title={`Alt+${s.key}`} aria-keyshortcuts={`Alt+${s.key}`}>
              <span className="nav-label">{s.label}</span>
              <kbd aria-hidden="true">{collapsed ? s.key : `Alt ${s.key}`}</kbd>
            </a>
          </li>
        ))}
      </ul>
      <div className="sidebar-foot muted small">
        <button type="button" className="secondary shortcuts-button" onClick={onShortcuts} aria-label="Keyboard shortcuts">
          <span aria-hidden="true">⌨</span>
          <span className="nav-label"> Keyboard shortcuts</span>
        </button>
        {transportKind() === 'http' ? <SessionBadge /> : null}
        {info.data ? <span className="nav-label">{`v${info.data.version} · ${info.data.host === 'desktop' ? 'desktop' : 'browser mode'}`}</span> : null}
      </div>
    </nav>
  );
}
