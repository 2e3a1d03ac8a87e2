import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { nextIndex } from './keyboard-nav';

export interface TabDef<Id extends string> {
  id: Id;
  label: ReactNode;
}

/**
 * A row of tabs as the WAI-ARIA Authoring Practices build one: the chosen tab is the only Tab stop,
 * Left and Right (Home, End) move to another and show its panel at once (every panel is drawn
 * already, so nothing waits). Panels are `${idPrefix}-panel-${id}`, labelled by their tab.
 */
export function TabList<Id extends string>({
  label,
  idPrefix,
  tabs,
  selected,
  onSelect,
}: {
  label: string;
  idPrefix: string;
  tabs: readonly TabDef<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.id === selected);
    const next = nextIndex(e.key, at, tabs.length);
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[next]!;
    onSelect(tab.id);
    list.current?.querySelector<HTMLElement>(`#${idPrefix}-tab-${tab.id}`)?.focus();
  };
  return (
    <div ref={list} className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t.id}`}
          aria-selected={selected === t.id}
          aria-controls={`${idPrefix}-panel-${t.id}`}
          tabIndex={selected === t.id ? 0 : -1}
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
