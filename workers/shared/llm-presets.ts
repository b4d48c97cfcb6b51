// The local model servers researchers already run, as one-click presets for the
// OpenAI-compatible endpoint: base URL, and the CORS setting each needs so that a browser page
// may call it, said plainly (a server that does not answer CORS looks "unreachable" to the app).
export interface LocalLlmPreset {
  id: 'ollama' | 'lm-studio' | 'llama-cpp';
  label: string;
  baseUrl: string;
  /** What to set on the server so the app's origin may call it; `{origin}` is replaced. */
  cors: string;
}

export const LOCAL_LLM_PRESETS: readonly LocalLlmPreset[] = [
  {
    id: 'ollama',
    label: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    cors: 'Ollama answers only origins listed in OLLAMA_ORIGINS: start it with OLLAMA_ORIGINS={origin} ollama serve (or set OLLAMA_ORIGINS in its service environment and restart it).',
  },
  {
    id: 'lm-studio',
    label: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    cors: 'In LM Studio, open the Developer tab (local server), turn on "Enable CORS" in the server settings, and start the server.',
  },
  {
    id: 'llama-cpp',
    label: 'llama.cpp server',
    baseUrl: 'http://localhost:8080/v1',
    cors: 'llama-server answers CORS for any origin by default; if it was started with --cors-origins, add {origin} to that list.',
  },
];

/** The preset whose base URL is `baseUrl` (trailing slashes and localhost/127.0.0.1 alike). */
export function presetFor(baseUrl: string): LocalLlmPreset | undefined {
  const norm = (u: string) =>
    u.trim().replace(/\/+$/, '').replace('//127.0.0.1:', '//localhost:').toLowerCase();
  return LOCAL_LLM_PRESETS.find((p) => norm(p.baseUrl) === norm(baseUrl));
}

/** A preset's CORS advice with the app's origin filled in. */
export function corsAdvice(preset: LocalLlmPreset, origin: string): string {
  return preset.cors.replaceAll('{origin}', origin);
}
