// A card section whose heading is also its accessible name (screen readers and e2e tests find
// it by that name), so the two cannot drift apart.
import type { ReactNode } from 'react';

export function TitledSection({
  className,
  title,
  testId,
  children,
}: {
  className: string;
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section className={className} aria-label={title} data-testid={testId}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}
