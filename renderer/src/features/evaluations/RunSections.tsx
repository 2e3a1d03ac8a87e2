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
                heading?.scrollIntoView({ block: 'start' });
                heading?.focus({ preventScroll: true });
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
