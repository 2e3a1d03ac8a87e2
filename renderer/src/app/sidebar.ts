import { useEffect, useState } from 'react';

const KEY = 'verdict:sidebar';
/** Below this width the sidebar starts collapsed, so the screen keeps its room (1024×700 and up work). */
const NARROW = '(max-width: 1199px)';

/** Whether the sidebar is collapsed: the user's choice when made, else by the window's width. */
export function useSidebar(): [boolean, () => void] {
  const [choice, setChoice] = useState<string | null>(() => localStorage.getItem(KEY));
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const media = window.matchMedia(NARROW);
    const onChange = () => setNarrow(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  const collapsed = choice === null ? narrow : choice === 'collapsed';
  const toggle = () => {
    const next = collapsed ? 'open' : 'collapsed';
    localStorage.setItem(KEY, next);
    setChoice(next);
  };
  return [collapsed, toggle];
}
