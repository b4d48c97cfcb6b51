// Error and info messages. Errors stay until dismissed; each says how to fix the problem.
import { useEffect } from 'react';
import { useAppStore } from '../state/app-store';

export function Notices() {
  const notices = useAppStore((s) => s.notices);
  const dismiss = useAppStore((s) => s.dismiss);
  useEffect(() => {
    const timers = notices
      .filter((n) => n.kind === 'info')
      .map((n) => setTimeout(() => dismiss(n.id), 6000));
    return () => timers.forEach(clearTimeout);
  }, [notices, dismiss]);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div
          key={n.id}
          className={`notice ${n.kind}`}
          role={n.kind === 'error' ? 'alert' : 'status'}
          data-testid="notice"
        >
          <span>{n.text}</span>
          <button aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
