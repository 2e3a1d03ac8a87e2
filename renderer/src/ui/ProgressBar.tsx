import type { ReactNode } from 'react';

/** How far some work is, from 0 to `total`: a progress bar with its value said as `valueText`, not a live region. */
export function ProgressBar({
  label,
  done,
  total,
  valueText,
  className,
  testId,
  children,
}: {
  label: string;
  done: number;
  total: number;
  valueText: string;
  className: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <span
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
      aria-valuetext={valueText}
      className={className}
      data-testid={testId}
    >
      {children}
    </span>
  );
}
