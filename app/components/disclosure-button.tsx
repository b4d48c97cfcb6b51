// A link-styled button that shows or hides a section below it, with its state in aria-expanded.
import type { ReactNode } from 'react';

export function DisclosureButton({
  open,
  onToggle,
  testId,
  children,
}: {
  open: boolean;
  onToggle: (open: boolean) => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <button
      className="link"
      onClick={() => onToggle(!open)}
      aria-expanded={open}
      data-testid={testId}
    >
      {children}
    </button>
  );
}
