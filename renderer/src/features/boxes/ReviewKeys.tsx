import { keyLabel, keysOf, SHORTCUTS, type ShortcutId } from '../../lib/shortcuts';
import { useShortcutSettings } from '../../lib/use-shortcuts';

/** The review's single keys as they are set now (Settings can change or turn them off), said under the review bar. */
export function ReviewKeys({ perQuestion }: { perQuestion: boolean }) {
  const settings = useShortcutSettings();
  if (!settings.enabled)
    return (
      <p className="muted small" data-testid="review-keys">
        Single-key shortcuts are turned off (Settings → Keyboard shortcuts).
      </p>
    );
  const ids: ShortcutId[] = perQuestion ? ['accept', 'reject', 'clear', 'next', 'previous', 'runImage'] : ['accept', 'reject', 'next', 'previous', 'runImage'];
  const parts = ids.flatMap((id) => {
    const keys = keysOf(settings, id);
    const does = SHORTCUTS.find((s) => s.id === id)!.does.toLowerCase();
    return keys.length > 0 ? [`${keys.map(keyLabel).join(' or ')} ${does}`] : [];
  });
  if (settings.labelDigits) parts.push('1–9 label of the next box');
  return (
    <p className="muted small" data-testid="review-keys">
      Keys: {parts.join(' · ')}
      {perQuestion ? ' (Shift with a verdict key: the whole image)' : ''} · outside text fields · ? lists them all.
    </p>
  );
}

/** The key that gives a verdict again, as it is set now, or null when that shortcut is off. */
export function useVerdictKey(verdict: 'accepted' | 'rejected' | null): string | null {
  const settings = useShortcutSettings();
  const keys = keysOf(settings, verdict === 'rejected' ? 'reject' : 'accept');
  return settings.enabled && keys.length > 0 ? keyLabel(keys[0]!) : null;
}
