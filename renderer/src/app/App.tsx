import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { appInfoQuery, settingsQuery } from '../features/settings';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { QuestionSetsScreen } from '../features/question-sets/QuestionSetsScreen';
import { RunsScreen } from '../features/runs/RunsScreen';
import { BoxesScreen } from '../features/boxes/BoxesScreen';
import { ReviewScreen } from '../features/review';
import { MonitorScreen } from '../features/monitor';
// The charting library is large: it loads with the Endpoints screen, not at start.
const EndpointsScreen = lazy(() => import('../features/endpoints/EndpointsScreen').then((m) => ({ default: m.EndpointsScreen })));
// Evaluations draws charts too, so it loads the same way.
const EvaluationsScreen = lazy(() => import('../features/evaluations/EvaluationsScreen').then((m) => ({ default: m.EvaluationsScreen })));
import { ZdrScreen } from '../features/zdr/ZdrScreen';
import { sessionRefusal, SignInScreen } from '../features/session';
import { actionFor } from '../lib/shortcuts';
import { isTyping, shortcutSettings } from '../lib/use-shortcuts';
import { Announcer } from '../ui/announcer';
import { ErrorNotice, focusNextHeading, Loading } from '../ui/components';
import { ErrorBoundary } from './ErrorBoundary';
import { SCREENS, screenFromHash, type ScreenId } from './routes';
import { ShortcutsDialog } from './ShortcutsDialog';
import { Sidebar } from './Sidebar';
import { useSidebar } from './sidebar';
import { useFocusRescue } from './use-focus-rescue';

const SCREEN_COMPONENTS: Record<ScreenId, ComponentType> = {
  'question-sets': QuestionSetsScreen,
  runs: RunsScreen,
  boxes: BoxesScreen,
  review: ReviewScreen,
  monitor: MonitorScreen,
  endpoints: EndpointsScreen,
  zdr: ZdrScreen,
  settings: SettingsScreen,
  evaluations: EvaluationsScreen,
};

function useScreen(): ScreenId {
  const [screen, setScreen] = useState<ScreenId>(() => screenFromHash(window.location.hash));
  const shown = useRef(screen);
  useEffect(() => {
    const onHash = () => {
      const next = screenFromHash(window.location.hash);
      if (next === shown.current) return;
      shown.current = next;
      // A new screen's heading takes focus once drawn (asked before it is): the control that had
      // focus is gone, and a screen reader says where it is now.
      focusNextHeading();
      setScreen(next);
    };
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const target = SCREENS.find((s) => s.key === event.key);
      if (target) {
        event.preventDefault();
        window.location.hash = `#/${target.id}`;
      }
    };
    window.addEventListener('hashchange', onHash);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('keydown', onKey);
    };
  }, []);
  return screen;
}

/** Puts the effective theme on <html>; "system" follows the OS setting, also when it changes. */
function useTheme(): void {
  const settings = useQuery(settingsQuery());
  const theme = settings.data?.theme ?? 'system';
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset['theme'] = theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}

/** The shortcuts dialog: opened by its key (? unless changed) outside text fields, closed back to where focus was. */
function useShortcutsDialog(): [boolean, () => void, () => void] {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const show = () => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    if (opener.current?.isConnected) opener.current.focus();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || document.querySelector('dialog[open]') || actionFor(shortcutSettings(), e)?.id !== 'help') return;
      e.preventDefault();
      show();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return [open, show, close];
}

export function App() {
  const screen = useScreen();
  const info = useQuery(appInfoQuery());
  const [collapsed, toggleSidebar] = useSidebar();
  const [shortcutsOpen, showShortcuts, closeShortcuts] = useShortcutsDialog();
  useTheme();
  useFocusRescue();
  const noSession = sessionRefusal(info.error);
  useEffect(() => {
    const label = noSession ? 'Sign in' : (SCREENS.find((s) => s.id === screen)?.label ?? '');
    document.title = `${label} · Verdict`;
  }, [screen, noSession]);

  // A session that stopped (its key revoked, its time up) says why above the sign-in form.
  if (noSession) return <SignInScreen ended={noSession.metadata?.['session'] === 'ended' ? noSession.message : null} />;
  const Screen = SCREEN_COMPONENTS[screen];
  return (
    <div className="shell" data-sidebar={collapsed ? 'collapsed' : 'open'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Sidebar screen={screen} collapsed={collapsed} onToggle={toggleSidebar} onShortcuts={showShortcuts} />
      <main id="main" className="content" tabIndex={-1}>
        {info.isPending ? <Loading what="Verdict" /> : null}
        {info.error && !noSession ? <ErrorNotice error={info.error} title="Verdict's core did not answer" /> : null}
        <ErrorBoundary resetKey={screen}>
          <Suspense fallback={<Loading what="the screen" />}>
            <Screen />
          </Suspense>
        </ErrorBoundary>
      </main>
      <ShortcutsDialog open={shortcutsOpen} onClose={closeShortcuts} />
      <Announcer />
    </div>
  );
}
