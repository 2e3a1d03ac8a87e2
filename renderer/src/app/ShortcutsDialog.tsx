import { useEffect, useRef } from 'react';
import { keyLabel, keysOf, SHORTCUTS } from '../lib/shortcuts';
import { useShortcutSettings } from '../lib/use-shortcuts';

/** Keys that act only while their widget has focus, or with a modifier: always on, listed for reference. */
const FIXED: { where: string; keys: [string, string][] }[] = [
  {
    where: 'Everywhere',
    keys: [
      ['Alt+1 … Alt+9', 'Switch screens: Question sets, Runs, Evaluations, Boxes, Review, Monitor, Endpoints, ZDR, Settings'],
      ['Tab, Shift+Tab', 'Next and previous control'],
      ['← → Home End', 'Move within tabs, toolbars and option groups'],
    ],
  },
  {
    where: 'The box canvas, while it has focus',
    keys: [
      ['N', 'Add a box'],
      ['B, Shift+B', 'Select the next or previous box'],
      ['Arrows (Shift: further)', 'Move the selected box, or pan when none is selected'],
      ['Alt+arrows', 'Resize the selected box'],
      ['Delete', 'Remove the selected box'],
      ['Escape', 'Deselect'],
      ['+ −', 'Zoom in and out'],
      ['0, Shift+1', 'Fit the image, show it at 100%'],
      ['Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y', 'Undo, redo'],
    ],
  },
  {
    where: 'The Review screen, outside text fields (off with the single-key shortcuts)',
    keys: [
      ['Y, N', 'Answer a yes/no question'],
      ['1 … 9', 'Choose an option or a score level'],
      ['↑ ↓, Tab', 'The next or previous question'],
      ['Enter', 'Commit the answers'],
      ['S, F', 'Skip the item, flag it'],
      ['Any key after a commit', 'Go on to the next item'],
    ],
  },
  {
    where: 'The results of an evaluation run',
    keys: [
      ['Arrows', 'Move between cells'],
      ['Home, End; Ctrl+Home, Ctrl+End', 'First or last cell of the row; of the results'],
      ['Page Up, Page Down', 'A view of rows up or down'],
      ['Enter', 'Open the item beside the results'],
      ['Escape', 'Close the item'],
    ],
  },
];

/** The keyboard shortcuts, as set in Settings: opened with ? (or the sidebar's button), closed with Escape. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const settings = useShortcutSettings();
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const single = (id: (typeof SHORTCUTS)[number]['id']) => {
    const keys = keysOf(settings, id);
    return !settings.enabled || keys.length === 0 ? 'off' : keys.map(keyLabel).join(' or ');
  };
  return (
    <dialog ref={dialog} className="shortcuts-dialog" aria-labelledby="shortcuts-title" onClose={onClose}>
      <div className="panel-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted small">
        Single keys act outside text fields. They can be turned off, or given other keys, in{' '}
        <a href="#/settings" onClick={onClose}>
          Settings
        </a>
        .
      </p>
      <table className="table small">
        <caption>Single keys{settings.enabled ? '' : ' (turned off)'}</caption>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <kbd>{single(s.id)}</kbd>
              </th>
              <td>
                {s.does}
                {s.withShift ? ` (Shift: ${s.withShift})` : ''} <span className="muted">· {s.where}</span>
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">
              <kbd>{settings.enabled && settings.labelDigits ? '1 … 9' : 'off'}</kbd>
            </th>
            <td>
              Label of the next box drawn <span className="muted">· Boxes</span>
            </td>
          </tr>
        </tbody>
      </table>
      {FIXED.map((group) => (
        <table key={group.where} className="table small">
          <caption>{group.where}</caption>
          <tbody>
            {group.keys.map(([keys, does]) => (
              <tr key={keys}>
                <th scope="row">
                  <kbd>{keys}</kbd>
                </th>
                <td>{does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </dialog>
  );
}
