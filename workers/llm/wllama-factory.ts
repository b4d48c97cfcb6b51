// Builds the real @wllama/wllama instance (browser only: it starts a Worker from a Blob URL and
// needs JSPI + memory64 for the shipped wllama.wasm). The wasm URL is given by the caller (the
// worker entry resolves it with Vite's `?url`); compat mode is turned off so nothing is fetched
// from a CDN. Imports only @wllama/wllama and ./wllama types.
import { Wllama } from '@wllama/wllama/esm/index.js';
import type { WllamaLike } from './wllama';

/** @param wasmUrl URL of node_modules/@wllama/wllama/esm/wasm/wllama.wasm as served by the app. */
export function createRealWllama(wasmUrl: string): WllamaLike {
  const w = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, allowOffline: true });
  // Default compat mode loads @wllama/wllama-compat from jsDelivr on Safari; we never use a CDN.
  w.setCompat(null);
  return w;
}
