import { Fragment } from 'react';
import { useShortcutSettings } from '../../lib/use-shortcuts';

/** The review's keys, said under the item; or that single keys are off (the buttons still work). */
export function ReviewKeysHint({ several }: { several: boolean }) {
  const settings = useShortcutSettings();
  if (!settings.enabled)
    return (
      <p className="muted small" data-testid="review-keys">
        Single-key shortcuts are turned off (Settings → Keyboard shortcuts): answer with the buttons.
      </p>
    );
  const keys = [
    'Y / N yes or no',
    '1–9 an option or level',
    ...(several ? ['Tab, Shift+Tab or ↑ ↓ another question'] : []),
    'Enter commit',
    'S skip',
    'F flag',
  ];
  return (
    <p className="muted small" data-testid="review-keys">
      Keys, outside text fields:{' '}
      {keys.map((k, i) => (
        <Fragment key={k}>
          {i > 0 ? ' · ' : ''}
          <span className="nowrap">{k}</span>
        </Fragment>
      ))}
    </p>
  );
}
