// Makes AppError survive the Comlink boundary with its code, retryability and details.
// Owns: the "throw" transfer handler. Both sides (UI and every worker) call
// `installErrorTransfer()` once before using Comlink.
import * as Comlink from 'comlink';
import {
  AppError,
  deserializeError,
  serializeError,
  toAppError,
  type SerializedAppError,
} from './errors';

interface ThrownValue {
  value: unknown;
}

let installed = false;

// Comlink does not export its throw marker; it wraps a thrown value as `{ value, [Symbol("Comlink.thrown")]: 0 }`.
function isThrownValue(value: unknown): value is ThrownValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getOwnPropertySymbols(value).some((s) => s.description === 'Comlink.thrown')
  );
}

export function installErrorTransfer(): void {
  if (installed) return;
  installed = true;
  const handler: Comlink.TransferHandler<ThrownValue, SerializedAppError> = {
    canHandle: isThrownValue,
    serialize: (thrown: ThrownValue) => {
      const err = thrown.value instanceof AppError ? thrown.value : toAppError(thrown.value);
      return [serializeError(err), []];
    },
    deserialize: (data: SerializedAppError) => {
      throw deserializeError(data);
    },
  };
  Comlink.transferHandlers.set('throw', handler);
}
