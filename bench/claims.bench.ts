// `npm run bench -- claims [--dataset <scifact folder>] [--claims 100] [--out file]`
// One LLM-free claim check (workers/projects/claim-check.ts: lexical search, stance judgement of
// up to 8 distinct sources with live USE-lite embedding of their 4 closest sentences each,
// triangulation) on SciFact stored as a library (5,183 abstracts, ~20k chunks), over the first N
// dev claims. Issue 17 goal: p50 < 300 ms. Reports; never gates.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeKernel, readUseLiteFile } from '../workers/embed/node-kernel';
import { loadUseLite } from '../workers/embed/use-lite';
import { checkClaim, type ClaimCheckDeps } from '../workers/projects/claim-check';
import { createEvidenceJudge } from '../workers/projects/evidence';
import { provenanceOf } from '../workers/projects/provenance';
import { createStanceModel, type FittedStanceModel } from '../workers/projects/stance-model';
import { createLexicalSearch } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import { loadCorpus } from './eval/beir';
import { loadClaims } from './eval/claims-data';
import { storeBeirDoc } from './eval/store-beir-doc';
import { percentile } from './lexical.bench';
import { parseArgs } from './args';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DATASET = join(HERE, '..', '..', 'shared', 'datasets', 'scifact');

export default {
  name: 'claims',
  async run(argv: string[]) {
    const args = parseArgs(argv);
    const dataset = args.dataset ?? DEFAULT_DATASET;
    const n = Number(args.claims ?? 100);
    const db = await openNodeDatabase();
    const store = await createStore(db, { clock: () => 0 });
    const lexical = await createLexicalSearch(db.sql, { version: store.version });
    let chunks = 0;
    for (const d of await loadCorpus(dataset)) chunks += (await storeBeirDoc(store, d)).length;
    const fitted = JSON.parse(
      readFileSync(join(HERE, '../workers/projects/fitted/stance-use-lite.json'), 'utf8'),
    ) as FittedStanceModel;
    const m = await loadUseLite(await createNodeKernel(), readUseLiteFile);
    const embed = async (t: string[]) => t.map((x) => m.embedInt16(x));
    const judge = createEvidenceJudge({
      model: createStanceModel(fitted, m.dim),
      embed: { claims: embed, sentences: embed },
    });
    const docs = new Map((await store.listDocuments()).map((d) => [d.id, d]));
    const deps: ClaimCheckDeps = {
      judge,
      search: (r) => lexical.search(r),
      documentText: async (id) => (await store.getDocument(id)).text,
      provenance: async (id) => {
        const d = docs.get(id)!;
        return provenanceOf({ location: d.path, title: d.title, date: d.importedAt }, undefined);
      },
    };
    const claims = loadClaims(dataset, 'validation').slice(0, n);
    await checkClaim(deps, claims[0]!.claim); // warm-up
    const times: number[] = [];
    for (const c of claims) {
      const t0 = performance.now();
      await checkClaim(deps, c.claim);
      times.push(performance.now() - t0);
    }
    const s = [...times].sort((a, b) => a - b);
    const r = (x: number) => Math.round(x * 10) / 10;
    const report = {
      bench: 'claims',
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, loadavg: loadavg().map(r) },
      library: { documents: docs.size, chunks },
      claims: claims.length,
      sourcesPerClaim: 8,
      sentencesPerSource: 4,
      embedding: 'use-lite, live (no cache)',
      p50Ms: r(percentile(s, 50)),
      p95Ms: r(percentile(s, 95)),
      meanMs: r(s.reduce((a, b) => a + b, 0) / s.length),
    };
    const out = args.out ?? join(HERE, 'reports', 'claims.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify(report, null, 2));
    await db.close();
  },
};
