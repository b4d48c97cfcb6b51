// Boundary test: an AppError thrown behind Comlink arrives with its code, retryability and details.
import { describe, expect, it } from 'vitest';
import * as Comlink from 'comlink';
import { installErrorTransfer } from './comlink-errors';
import { AppError, createError } from './errors';

describe('AppError across a MessageChannel', () => {
  it('keeps code, retryable and details', async () => {
    installErrorTransfer();
    const { port1, port2 } = new MessageChannel();
    const api = {
      async fail(): Promise<void> {
        throw createError('STORAGE_FULL', { reason: 'Quota of 10 MB reached.', bytes: 10 });
      },
      async crash(): Promise<void> {
        throw new TypeError('boom');
      },
    };
    Comlink.expose(api, port1);
    const remote = Comlink.wrap<typeof api>(port2);
    const err = await remote.fail().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('STORAGE_FULL');
    expect((err as AppError).retryable).toBe(true);
    expect((err as AppError).details).toMatchObject({ bytes: 10 });
    expect((err as AppError).message).toContain('Quota of 10 MB reached.');
    const crash = await remote.crash().catch((e: unknown) => e);
    expect((crash as AppError).code).toBe('INTERNAL');
    expect((crash as AppError).message).toContain('boom');
    port1.close();
    port2.close();
  });
});
