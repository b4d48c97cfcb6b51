import { describe, expect, it } from 'vitest';
import { frameBatched } from './frame-batched';

describe('frameBatched', () => {
  it('applies only the latest text, once per frame, however many arrive', () => {
    const frames: Array<() => void> = [];
    const applied: string[] = [];
    const show = frameBatched(
      (t) => applied.push(t),
      (run) => frames.push(run),
    );
    for (let i = 1; i <= 10_000; i++) show('x'.repeat(i));
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(applied).toEqual(['x'.repeat(10_000)]);
    show('next');
    show('last');
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(applied.at(-1)).toBe('last');
    expect(applied).toHaveLength(2);
  });
});
