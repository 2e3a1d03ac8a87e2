import { useState } from 'react';
import { clash, DEFAULT_SETTINGS, keyLabel, keysOf, parseKeys, SHORTCUTS, type Shortcut, type ShortcutSettings } from '../../lib/shortcuts';
import { saveShortcutSettings, useShortcutSettings } from '../../lib/use-shortcuts';
import { Panel } from '../../ui/components';
import { ColumnHeads } from '../../ui/ColumnHeads';

/** One shortcut's keys as typed: saved when they are keys no other shortcut has, else the problem beside the field. */
function KeysField({ shortcut, settings }: { shortcut: Shortcut; settings: ShortcutSettings }) {
  const saved = keysOf(settings, shortcut.id).join(' ');
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const id = `shortcut-${shortcut.id}`;
  const change = (value: string) => {
    setText(value);
    const parsed = parseKeys(value);
    if ('problem' in parsed) return setProblem(parsed.problem);
    const taken = clash(settings, shortcut.id, parsed.keys);
    if (taken) return setProblem(`${keyLabel(taken.key)} is already “${taken.with.does}”`);
    setProblem(null);
    saveShortcutSettings({ ...settings, keys: { ...settings.keys, [shortcut.id]: parsed.keys } });
  };
  return (
    <tr>
      <th scope="row">
        <label htmlFor={id}>{shortcut.does}</label>
        {shortcut.withShift ? <div className="muted small">Shift: {shortcut.withShift}</div> : null}
      </th>
      <td className="muted small">{shortcut.where}</td>
      <td className="shortcut-keys">
        <input
          id={id}
          value={text ?? saved}
          disabled={!settings.enabled}
          onChange={(e) => change(e.target.value)}
          onBlur={() => problem === null && setText(null)}
          aria-invalid={problem !== null || undefined}
          aria-describedby={`${id}-help${problem ? ` ${id}-problem` : ''}`}
          spellCheck={false}
          autoComplete="off"
        />
        <span id={`${id}-help`} className="visually-hidden">
          One key per letter or sign, separated by spaces; empty turns it off.
        </span>
        {problem ? (
          <div id={`${id}-problem`} className="text-error small">
            {problem}
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * Single-key shortcuts (WCAG 2.1.4): all off at once, the 1–9 label keys off, or any shortcut on
 * other keys (or none), as Label Studio's hotkey settings do. Kept in this browser or app.
 */
export function ShortcutsPanel() {
  const settings = useShortcutSettings();
  const save = (patch: Partial<ShortcutSettings>) => saveShortcutSettings({ ...settings, ...patch });
  return (
    <Panel title="Keyboard shortcuts">
      <p className="muted">
        Single keys act outside text fields; ? lists every shortcut. Type the keys for each, one letter or sign per key separated by spaces; leave it empty to
        turn that one off.
      </p>
      <label className="inline-check">
        <input type="checkbox" checked={settings.enabled} onChange={(e) => save({ enabled: e.target.checked })} /> Single-key shortcuts are on
      </label>
      <label className="inline-check">
        <input type="checkbox" checked={settings.labelDigits} disabled={!settings.enabled} onChange={(e) => save({ labelDigits: e.target.checked })} /> 1–9
        choose the label of the next box (Boxes)
      </label>
      <table className="table small" aria-label="Single-key shortcuts">
        <ColumnHeads names={['Does', 'Where', 'Keys']} />
        <tbody>
          {SHORTCUTS.map((s) => (
            <KeysField key={s.id} shortcut={s} settings={settings} />
          ))}
        </tbody>
      </table>
      <button type="button" className="secondary" onClick={() => saveShortcutSettings(DEFAULT_SETTINGS)}>
        Put back the default keys
      </button>
    </Panel>
  );
}
