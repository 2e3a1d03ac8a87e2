/** One section of the run page: its name in the index and the id of its panel's heading (ui/components Panel). */
export interface RunSection {
  label: string;
  heading: string;
}

/** The heading id Panel gives a title. */
export const panelHeading = (title: string) => `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/**
 * The run page's sections, kept in view at the top while the page scrolls: each moves to its
 * section and puts focus on its heading (links would move the app's hash route).
 */
export function RunSections({ sections }: { sections: RunSection[] }) {
  return (
    <nav className="run-sections" aria-label="Sections of this run">
      <ul>
        {sections.map((s) => (
          <li key={s.heading}>
            <button
              type="button"
              className="link-button"
              onClick={() => {
                const heading = document.getElementById(s.heading);
                if (heading) moveTo(heading);
              }}
            >
              {s.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What a reader does to move on: after any of these the page is theirs again. */
const READER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Scrolls to the heading and focuses it, then keeps it where it came to while sections above it
 * are still filling in (a cascade curve or a chart answered after the move grows its section and
 * pushed the heading out of view; the browser's scroll anchoring held on to the growing section):
 * for up to 3 s, until the reader scrolls, clicks or types.
 */
function moveTo(heading: HTMLElement): void {
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
  if (typeof ResizeObserver === 'undefined') return;
  const top = heading.getBoundingClientRect().top;
  const observer = new ResizeObserver(() => {
    if (Math.abs(heading.getBoundingClientRect().top - top) > 1) heading.scrollIntoView({ block: 'start' });
  });
  const done = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of READER_MOVES) window.removeEventListener(type, done, true);
  };
  const timer = setTimeout(done, 3000);
  for (const type of READER_MOVES) window.addEventListener(type, done, { capture: true, passive: true });
  // The run page's sections side by side in one box: it grows with any of them (the body keeps the window's height).
  observer.observe(heading.closest('section')?.parentElement ?? document.body);
}
