// `npm run eval -- --task answers --docs DIR --questions FILE.jsonl [--model ID] [--rows OUT.jsonl]
// [--json OUT.json]`: imports a folder of real files through the app's importer (answers-import.ts),
// indexes them as the hybrid eval does (the app's store, FTS5, vectors, HNSW), and asks each
// question through the app's answer service with no LLM and no web, wired as the library wires it
// (workers/db/answers.ts `libraryRetrievalDeps`). Prints page_hit_at_3, answer_phrase_recall
// and not_in_library_accuracy (answers-questions.ts); --rows writes what each question returned.
import { readFileSync, writeFileSync } from 'node:fs';
import { createAnswerService } from '../workers/answer/service';
import { loadFittedModel } from '../workers/answer/fitted';
import type { AnswerDeps, Retrieval } from '../workers/answer/types';
import type { Answer } from '../workers/shared/answer-api';
import { libraryRetrievalDeps } from '../workers/db/answers';
import { openEmbedCache } from '../lab/embed-cache';
import { percentile, round4 } from './logistic';
import { loadNodeEncoder } from '../lab/embed-models';
import { importFolder, type ImportedDoc } from './answers-import';
import { pageAt } from '../workers/shared/pages';
import { createFolderVerifier } from '../workers/verifier/node-bundle';
import { answerFigures, parseQuestions, type AnswerRow } from './answers-questions';
import { createHybridCore, fusionFromOptions, hybridSettings } from './hybrid-mode';
import type { StoredDoc } from './store-beir-doc';

const USAGE =
  'usage: npm run eval -- --task answers --docs DIR --questions FILE.jsonl [--model use-lite|all-MiniLM-L6-v2] [--verifier DIR|none] [--rows OUT.jsonl] [--json OUT.json]';

/** The answer service's `embed` on the eval encoder (cached beside the checker's embeddings). */
async function evalAnswerEmbed(model: string): Promise<AnswerDeps['embed']> {
  const encoder = await loadNodeEncoder(model);
  const cache = openEmbedCache(encoder.id, `${encoder.version}+checker`, encoder.dim);
  return async (texts, kind) =>
    texts.map((t) => {
      const input = kind === 'query' ? encoder.queryText(t) : encoder.passageText(t);
      let v = cache.get(input);
      if (!v) {
        v = encoder.embed(input);
        cache.put(input, v);
      }
      return v;
    });
}

/** The row of one answer: the first retrieval's top 10 chunks with their pages, the text. */
function rowOf(
  id: string,
  answer: Answer,
  first: Retrieval | null,
  byName: Map<string, ImportedDoc>,
): AnswerRow {
  const retrieved = (first?.chunks ?? []).slice(0, 10).map((c) => {
    const starts = byName.get(c.path)?.pageStarts;
    return { doc: c.path, page: pageAt(starts, c.start) };
  });
  return {
    id,
    retrieved,
    answer: answer.sentences.map((s) => s.text).join(' '),
    not_in_library: answer.notFound,
  };
}

/** The dev library imported and indexed, with the answer service's deps wired as the app wires them. */
export interface AnswersBench {
  questions: ReturnType<typeof parseQuestions>;
  folder: Awaited<ReturnType<typeof importFolder>>;
  byName: Map<string, ImportedDoc>;
  deps: AnswerDeps;
  /** The first retrieval of the latest ask (reset before each question). */
  firstRetrieval(): Retrieval | null;
  resetFirst(): void;
  close(): Promise<void>;
}

/** Imports `args.docs`, indexes it and wires the answer deps (shared with experiments/). */
export async function openAnswersBench(args: Record<string, string>): Promise<AnswersBench> {
  if (!args.docs || !args.questions) {
    console.error(USAGE);
    process.exit(2);
  }
  const model = args.model ?? 'use-lite';
  const questions = parseQuestions(readFileSync(args.questions, 'utf8'));
  const folder = await importFolder(args.docs);
  for (const f of folder.failures) console.error(`[answers] not imported: ${f.path}: ${f.message}`);
  const byName = new Map(folder.docs.map((d) => [d.name, d]));
  for (const q of questions)
    for (const g of q.gold ?? [])
      if (!byName.has(g.doc)) throw new Error(`question ${q.id}: gold doc "${g.doc}" not imported`);
  console.error(
    `[answers] imported ${folder.docs.length} files (${folder.docs.reduce((a, d) => a + d.chunks.length, 0)} chunks) in ${(folder.ms / 1000).toFixed(1)} s`,
  );
  const core = await createHybridCore({ ...args, model });
  const docs: StoredDoc[] = folder.docs.map((d) => ({
    id: d.name,
    title: d.input.title,
    text: d.input.text,
    imported: { input: d.input, chunks: d.chunks, hash: d.hash },
  }));
  await core.index(docs);
  const { store, lexical } = core.parts();
  // The app's fusion for the model unless --fusion names another (comparisons on this dev set).
  const { hybrid } = core.appSearch(
    args.fusion ? { fusion: fusionFromOptions(args), lexicalK: hybridSettings(args).lexicalK } : {},
  );
  const retrieval = await libraryRetrievalDeps({ store, lexical, hybrid });
  let first: Retrieval | null = null;
  const deps: AnswerDeps = {
    ...retrieval,
    async retrieve(req) {
      const r = await retrieval.retrieve(req);
      first ??= r;
      return r;
    },
    chunkVectors: core.chunkVectors,
    // The pair verifier the app ships (its relevance reading), unless `--verifier none`.
    ...(args.verifier === 'none' ? {} : { pairVerifier: createFolderVerifier(args.verifier) }),
    embed: await evalAnswerEmbed(model),
    modelId: core.parts().modelId,
    clock: { now: () => performance.now(), wallNow: () => 0 },
  };
  return {
    questions,
    folder,
    byName,
    deps,
    firstRetrieval: () => first,
    resetFirst: () => {
      first = null;
    },
    close: () => core.close(),
  };
}

export async function runAnswersTask(args: Record<string, string>): Promise<void> {
  const bench = await openAnswersBench(args);
  const { questions, folder, byName, deps } = bench;
  try {
    const service = createAnswerService(deps, await loadFittedModel(deps.modelId));
    const rows = new Map<string, AnswerRow>();
    const decisions: Record<string, string> = {};
    const relevanceMs: number[] = [];
    for (const q of questions) {
      bench.resetFirst();
      const answer = await service.ask({
        question: q.question,
        mode: 'extractive',
        allowLlm: false,
        allowWeb: false,
      });
      rows.set(q.id, rowOf(q.id, answer, bench.firstRetrieval(), byName));
      const read = answer.crag.steps.find((st) => st.kind === 'relevance');
      if (read) relevanceMs.push(read.ms);
      decisions[q.id] = answer.crag.decision;
    }
    if (args.rows)
      writeFileSync(args.rows, [...rows.values()].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const report = {
      task: 'answers',
      docs: args.docs,
      questions: args.questions,
      model: deps.modelId,
      files: folder.docs.length,
      chunks: folder.docs.reduce((a, d) => a + d.chunks.length, 0),
      pages: "the importer's page starts (workers/ingest/pdf-text.ts), as the app stores them",
      ...answerFigures(questions, rows),
      // What the verifier's reading adds to an answer (one core, pairs cached per process).
      relevance_p50_ms: relevanceMs.length ? round4(percentile(relevanceMs, 50)) : null,
      relevance_source: deps.pairVerifier ? 'verifier' : 'llm-free',
      decisions: Object.fromEntries(
        ['CORRECT', 'AMBIGUOUS', 'INCORRECT'].map((d) => [
          d,
          Object.values(decisions).filter((x) => x === d).length,
        ]),
      ),
    };
    console.log(JSON.stringify(report, null, 2));
    if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2) + '\n');
  } finally {
    await bench.close();
  }
}
