// EVALUATION ONLY (not app code): a minimal OpenAI-compatible `/v1/chat/completions` server on
// 127.0.0.1 that runs a GGUF model with native llama.cpp (npm node-llama-cpp, prebuilt CPU
// binary, nothing downloaded at run time), so `npm run eval -- --mode hyde|fusion|routed
// --llm http:http://127.0.0.1:<port>/v1` can use SmolLM2 far faster than wllama in a browser.
// Streams SSE as workers/llm/http.ts expects. Requests are served one at a time (one sequence).
// node-llama-cpp lives in its own package (eval/llm-server-deps/, 85 MB with --omit=optional)
// so the app's lock file and `npm ci` do not pull its ~700 MB of GPU/other-arch binaries:
//   npm install --prefix eval/llm-server-deps --omit=optional --ignore-scripts
// (install, not ci: the lock has no mac/win/riscv binaries because this registry lacks them, and
// `npm ci` refuses a lock missing optional packages; install keeps the lock unchanged).
//   npx tsx eval/llm-server.ts --model .cache/models/SmolLM2-135M-Instruct.Q4_1.gguf \
//     [--port 8089] [--threads 1] [--seed 42] [--log runs/llm-log.jsonl]
// Prompt = the GGUF's own chat template (as wllama's chat completion applies it). Sampling:
// the request's temperature (0 = greedy), top-k 40, top-p 0.95, the request's seed or --seed.
// Stats (tokens, tokens/s per request) go to stderr and, with --log, one JSON line per request.
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from '../lab/args';

interface ChatMessage {
  role: string;
  content: string;
}

interface ChatRequest {
  messages?: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  stop?: string[] | string;
  seed?: number;
  stream?: boolean;
}

// The few node-llama-cpp calls used here, typed locally (the package is not in the app's deps).
interface NlcModel {
  tokenize(text: string, specialTokens?: boolean): unknown[];
  fileInfo: { metadata: { tokenizer?: { chat_template?: string } } };
  tokens: { bosString?: string | null; eosString?: string | null };
  createContext(o: { contextSize: number; threads: number }): Promise<NlcContext>;
}
interface NlcContext {
  getSequence(): NlcSequence;
}
interface NlcSequence {
  clearHistory(): Promise<void>;
}
interface NlcCompletion {
  generateCompletion(
    prompt: unknown[],
    o: {
      maxTokens: number;
      temperature: number;
      topK: number;
      topP: number;
      seed: number;
      customStopTriggers?: string[];
      onTextChunk?: (text: string) => void;
      signal?: AbortSignal;
    },
  ): Promise<string>;
}
interface NlcModule {
  getLlama(o: { gpu: false; build: 'never'; logLevel: string }): Promise<{
    loadModel(o: { modelPath: string }): Promise<NlcModel>;
  }>;
  LlamaCompletion: new (o: { contextSequence: NlcSequence }) => NlcCompletion;
}
interface JinjaTemplate {
  render(vars: Record<string, unknown>): string;
}

async function loadDeps(): Promise<{ nlc: NlcModule; Template: new (t: string) => JinjaTemplate }> {
  const depsDir = join(import.meta.dirname, 'llm-server-deps');
  const req = createRequire(join(depsDir, 'package.json'));
  let nlcPath: string;
  try {
    nlcPath = req.resolve('node-llama-cpp');
  } catch {
    throw new Error(
      'node-llama-cpp is not installed: run `npm install --prefix eval/llm-server-deps --omit=optional --ignore-scripts`.',
    );
  }
  const nlc = (await import(pathToFileURL(nlcPath).href)) as NlcModule;
  const jinjaPath = createRequire(nlcPath).resolve('@huggingface/jinja');
  const jinja = (await import(pathToFileURL(jinjaPath).href)) as {
    Template: new (t: string) => JinjaTemplate;
  };
  return { nlc, Template: jinja.Template };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { strict: true });
  if (!args.model) {
    console.error(
      'usage: npx tsx eval/llm-server.ts --model <file.gguf> [--port 8089] [--threads 1]',
    );
    process.exit(2);
  }
  const port = Number(args.port ?? 8089);
  // One thread by default: with 2 threads on 2 shared, busy cores llama.cpp's spinning workers
  // fell from 65 to 1 token/s here.
  const threads = Number(args.threads ?? 1);
  const defaultSeed = Number(args.seed ?? 42);
  const logFile = args.log;
  const { nlc, Template } = await loadDeps();
  const t0 = performance.now();
  const llama = await nlc.getLlama({ gpu: false, build: 'never', logLevel: 'warn' });
  const model = await llama.loadModel({ modelPath: args.model });
  const context = await model.createContext({ contextSize: 2048, threads });
  const sequence = context.getSequence();
  const completion = new nlc.LlamaCompletion({ contextSequence: sequence });
  const templateText = model.fileInfo.metadata.tokenizer?.chat_template;
  if (!templateText) throw new Error('The GGUF has no chat template.');
  const template = new Template(templateText);
  const bos = model.tokens.bosString ?? '';
  const eos = model.tokens.eosString ?? '';
  console.error(
    `[llm-server] ${args.model} loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${threads} thread(s)`,
  );

  let queue: Promise<unknown> = Promise.resolve();
  const totals = { requests: 0, tokens: 0, ms: 0 };

  async function handle(body: ChatRequest, res: ServerResponse, signal: AbortSignal) {
    const messages = body.messages ?? [];
    const prompt = template.render({
      messages,
      add_generation_prompt: true,
      bos_token: bos,
      eos_token: eos,
    });
    const stop = body.stop === undefined ? [] : Array.isArray(body.stop) ? body.stop : [body.stop];
    const stream = body.stream !== false;
    const id = `chatcmpl-${totals.requests}`;
    const send = (delta: Record<string, unknown>, finish: string | null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      send({ role: 'assistant' }, null);
    }
    await sequence.clearHistory();
    const t = performance.now();
    // Tokenised with special tokens parsed, so <|im_start|> etc. are control tokens, not text.
    const promptTokens = model.tokenize(prompt, true);
    const text = await completion.generateCompletion(promptTokens, {
      maxTokens: body.max_tokens ?? 256,
      temperature: body.temperature ?? 0.7,
      topK: 40,
      topP: 0.95,
      seed: body.seed ?? defaultSeed,
      ...(stop.length ? { customStopTriggers: stop } : {}),
      ...(stream ? { onTextChunk: (piece: string) => void send({ content: piece }, null) } : {}),
      signal,
    });
    const ms = performance.now() - t;
    const tokens = model.tokenize(text).length;
    totals.requests++;
    totals.tokens += tokens;
    totals.ms += ms;
    if (stream) {
      send({}, 'stop');
      res.end('data: [DONE]\n\n');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          choices: [
            { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
          ],
        }),
      );
    }
    console.error(
      `[llm-server] #${totals.requests} ${promptTokens.length}+${tokens} tokens in ${ms.toFixed(0)} ms (${((tokens / ms) * 1000).toFixed(1)} tok/s; mean ${((totals.tokens / totals.ms) * 1000).toFixed(1)})`,
    );
    if (logFile)
      appendFileSync(
        logFile,
        `${JSON.stringify({ n: totals.requests, messages, temperature: body.temperature, max_tokens: body.max_tokens, promptTokens: promptTokens.length, tokens, ms: Math.round(ms), text })}\n`,
      );
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'POST /v1/chat/completions only' } }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const ctrl = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) ctrl.abort();
      });
      let body: ChatRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'body is not JSON' } }));
        return;
      }
      const run = () =>
        ctrl.signal.aborted
          ? Promise.resolve()
          : handle(body, res, ctrl.signal).catch((err: unknown) => {
              if (ctrl.signal.aborted) return;
              console.error('[llm-server]', err);
              if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
              res.end(JSON.stringify({ error: { message: String(err) } }));
            });
      queue = queue.then(run, run);
    });
  });
  server.listen(port, '127.0.0.1', () =>
    console.error(`[llm-server] http://127.0.0.1:${port}/v1/chat/completions`),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
