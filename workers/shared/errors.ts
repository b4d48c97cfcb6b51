// The one error model of Sift: a code table, `AppError`, and `createError(code, details)`.
// Owns: error codes, their default messages (each says how to fix it) and retryability.
// Must not import anything but the standard library: every layer imports this module.

/** Every code Sift can raise. The UI switches on these; never on message text. */
export const ERROR_CODES = {
  // ingest
  UNSUPPORTED_TYPE: {
    message: 'This file type is not supported. Import .txt, .md, .html/.htm, .pdf or .docx files.',
    retryable: false,
  },
  EMPTY_FILE: {
    message: 'The file has no text to index. Check that it is not empty.',
    retryable: false,
  },
  FILE_TOO_LARGE: {
    message: 'The file is larger than the import limit. Split it into smaller files.',
    retryable: false,
  },
  INVALID_UTF8: {
    message:
      'The file does not look like text (Sift reads UTF-8, UTF-16, Windows-1252 and Latin-1). Import it in a supported format, or convert it to UTF-8 text first.',
    retryable: false,
  },
  PARSE_FAILED: {
    message: 'The file could not be read; it may be corrupt or password-protected.',
    retryable: false,
  },
  NO_TEXT_LAYER: {
    message: 'The PDF has no text layer (it may be a scan). Run OCR on it first.',
    retryable: false,
  },
  IMPORT_CANCELLED: {
    message: 'The import was cancelled. Files already imported were kept.',
    retryable: true,
  },
  // store
  STORAGE_FULL: {
    message: 'The browser refused to store more data. Free space or delete documents, then retry.',
    retryable: true,
  },
  STORAGE_UNAVAILABLE: {
    message:
      'Persistent storage is not available in this browser. Use a recent Chromium or Firefox.',
    retryable: false,
  },
  DB_LOCKED: {
    message: 'The library is busy in another tab. Wait a moment and retry.',
    retryable: true,
  },
  DB_CORRUPT: {
    message: 'The library file is damaged. Import a backup from Library > Import library.',
    retryable: false,
  },
  DB_ERROR: {
    message: 'A database error occurred. Retry; if it persists, export your library.',
    retryable: true,
  },
  NOT_FOUND: { message: 'The item no longer exists. Refresh the view.', retryable: false },
  INVALID_LIBRARY_FILE: {
    message:
      'That file is not a Sift library (SQLite database). Choose a file made by Export library.',
    retryable: false,
  },
  SCHEMA_TOO_NEW: {
    message: 'The library was written by a newer version of Sift. Update Sift to open it.',
    retryable: false,
  },
  // search
  INVALID_QUERY: {
    message: 'The query could not be understood. Try plain words.',
    retryable: false,
  },
  // generic
  INVALID_ARGUMENT: { message: 'An argument was not valid.', retryable: false },
  ABORTED: { message: 'The operation was cancelled.', retryable: true },
  TIMEOUT: {
    message: 'The operation took too long. Retry, or check your connection.',
    retryable: true,
  },
  OFFLINE: { message: 'You are offline. Connect to the internet and retry.', retryable: true },
  NETWORK_ERROR: {
    message: 'The network request failed. Check your connection and retry.',
    retryable: true,
  },
  ORIGIN_NOT_ALLOWED: {
    message:
      'Sift connects only to its own app, the built-in providers and model hub, and addresses you set. To use this address, enter it in Settings (web search base URL, LLM endpoint or model hub).',
    retryable: false,
  },
  REDIRECT_REFUSED: {
    message:
      'The address redirected Sift somewhere it does not follow (another host, or a redirect the browser hides). Open the address in your browser and import the one it ends at.',
    retryable: false,
  },
  CORS_BLOCKED: {
    message:
      'The browser blocked the request (CORS): the service does not allow calls from web pages. Set a proxy or base URL for it in Settings.',
    retryable: false,
  },
  RATE_LIMITED: {
    message: 'The service is rate limiting requests. Sift will retry later.',
    retryable: true,
  },
  AUTH_FAILED: {
    message: 'The service rejected the API key. Check the key in Settings.',
    retryable: false,
  },
  PROVIDER_ERROR: { message: 'The service returned an error. Retry later.', retryable: true },
  CIRCUIT_OPEN: {
    message:
      'This provider failed repeatedly and is paused for a short while. It will be retried automatically.',
    retryable: true,
  },
  MALFORMED_RESPONSE: {
    message: 'The service sent a response Sift could not read.',
    retryable: true,
  },
  REPLY_TOO_LARGE: {
    message:
      'The language model sent more than one answer may hold (200 KB); the reply was cut there. Lower the maximum length on the endpoint, or check that it streams a normal answer.',
    retryable: false,
  },
  MODEL_LOAD_FAILED: {
    message: 'The model could not be loaded. Re-download or re-import it.',
    retryable: true,
  },
  // the pair verifier (workers/verifier/): any of these leaves the LLM-free verdicts in place
  VERIFIER_MISSING: {
    message:
      'The verifier model is not on this device and could not be fetched from the app. Connect once so Sift can fetch it; until then verdicts come from the LLM-free model.',
    retryable: true,
  },
  VERIFIER_CORRUPT: {
    message:
      'The verifier model files are damaged or incomplete. Sift dropped its copy and will fetch them again; until then verdicts come from the LLM-free model.',
    retryable: true,
  },
  VERIFIER_VERSION: {
    message:
      'The verifier model is of another version than this app expects. Reload the app to update it; until then verdicts come from the LLM-free model.',
    retryable: false,
  },
  // a shipped fitted parameter file (workers/*/fitted/, workers/fitted/manifest.json)
  FITTED_MISMATCH: {
    message:
      'A shipped fitted model reads features this version of the code does not compute. Refit it with the named `npm run fit` step (`npm run fit -- --list` lists them in order), then rebuild.',
    retryable: false,
  },
  WASM_ERROR: {
    message: 'The WebAssembly runtime reported an error. Reload the app.',
    retryable: false,
  },
  WEBGPU_UNAVAILABLE: {
    message: 'WebGPU is not available in this browser. Sift will use the CPU instead.',
    retryable: false,
  },
  QUOTA_INSUFFICIENT: {
    message: 'Not enough storage quota for this download. Free space or choose a smaller model.',
    retryable: false,
  },
  INTERNAL: {
    message: 'Something went wrong inside Sift. Reload the app; your data is safe.',
    retryable: false,
  },
  // web
  KEY_HOST_REFUSED: {
    message:
      'Sift did not send the API key: the base URL points to another host than the provider. Reset the base URL, or tick "Send my key to this base URL" in Settings > Web search if you trust it.',
    retryable: false,
  },
  PROVIDER_NOT_CONFIGURED: {
    message:
      'This web search provider is not set up. Add its API key or base URL in Settings > Web search.',
    retryable: false,
  },
  // vector index
  INDEX_CORRUPT: {
    message:
      'The search index file is damaged or from another version. Sift rebuilds it from the stored vectors; wait for the rebuild to finish.',
    retryable: true,
  },
} as const satisfies Record<string, { message: string; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * Builds an AppError with the code's default message, optionally made specific.
 * `details.reason` (if given) is appended so the message says what went wrong and how to fix it.
 */
export function createError(
  code: ErrorCode,
  details: Record<string, unknown> & { reason?: string; cause?: unknown } = {},
): AppError {
  const base = ERROR_CODES[code];
  const { cause, ...rest } = details;
  const message = typeof rest.reason === 'string' ? `${rest.reason} ${base.message}` : base.message;
  const err = new AppError(code, message, base.retryable, rest);
  if (cause !== undefined) (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Wraps any thrown value as an AppError, keeping AppErrors as they are. */
export function toAppError(value: unknown, fallback: ErrorCode = 'INTERNAL'): AppError {
  if (value instanceof AppError) return value;
  if (value instanceof DOMException && value.name === 'AbortError') return createError('ABORTED');
  if (value instanceof DOMException && value.name === 'QuotaExceededError') {
    return createError('STORAGE_FULL', { cause: value });
  }
  const reason = value instanceof Error ? value.message : String(value);
  return createError(fallback, {
    reason: reason.endsWith('.') ? reason : `${reason}.`,
    cause: value,
  });
}

/** The plain-data form of an AppError, for crossing a worker boundary. */
export interface SerializedAppError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details: Record<string, unknown>;
  stack?: string;
}

export function serializeError(err: AppError): SerializedAppError {
  return {
    code: err.code,
    message: err.message,
    retryable: err.retryable,
    details: structuredSafe(err.details),
    ...(err.stack ? { stack: err.stack } : {}),
  };
}

export function deserializeError(data: SerializedAppError): AppError {
  const code: ErrorCode = data.code in ERROR_CODES ? data.code : 'INTERNAL';
  const err = new AppError(code, data.message, data.retryable, data.details ?? {});
  if (data.stack) err.stack = data.stack;
  return err;
}

/** Keeps only what structured clone can carry (drops functions, errors become messages). */
function structuredSafe(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === 'function' || typeof value === 'symbol') continue;
    out[key] = value instanceof Error ? value.message : value;
  }
  return out;
}
