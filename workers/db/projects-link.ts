// The research projects' checks as the library serves them (issue 17): a claim check over the
// library's search scoped to the project, citation audits of drafts and answers, and the project
// exports. Builds the evidence judge from the active embedding model (over the embed pool) and the
// stance model fitted for it. Pages of PDF evidence come from the documents' page starts.
import type {
  AuditRowView,
  DraftClaims,
  ClaimCheckView,
  ProjectsApi,
  ProjectExportFiles,
} from '../shared/projects-api';
import type { StoredAnswer } from '../shared/answer-history-api';
import { createError, isAppError } from '../shared/errors';
import type { DocumentDetail } from '../shared/types';
import { pagesOf, type PageStarts } from '../shared/pages';
import { auditCitation } from '../projects/audit';
import { cachedEmbed, createSentenceCache } from '../projects/check-cache';
import { checkClaim } from '../projects/claim-check';
import { extractClaims } from '../projects/claims';
import { extractClaimsWithLlm } from '../projects/llm-claims';
import type { LlmDep } from '../query-plan/types';
import {
  matchReference,
  parseDraftReferences,
  replaceCitation,
} from '../projects/draft-references';
import { createEvidenceJudge, type EvidenceJudge } from '../projects/evidence';
import { evidenceGateFor } from '../projects/evidence-gate';
import { createPassageScores, type PassageScores } from '../projects/passage-scores';
import { loadFittedModel } from '../answer/fitted';
import type { LexicalSearch } from '../store/lexical-search';
import { createBiblioStore } from '../store/biblio-store';
import { libraryRetrievalDeps } from './answers';
import type { ProjectStore } from '../projects/project-store';
import type { Provenance } from '../projects/provenance';
import { createStanceModel, type FittedStanceModel } from '../projects/stance-model';
import miniLmStance from '../fitted/stance-all-MiniLM-L6-v2.json';
import useLiteStance from '../fitted/stance-use-lite.json';
import type { Store } from '../store/store';
import type { HybridSearch } from '../search/hybrid';
import type { SemanticSync } from './semantic-sync';
import { buildExports, provenanceOfDocument, toClaimView } from './projects-exports';

/** The stance models shipped, by the embedding model they were fitted on. */
export const FITTED_STANCE: FittedStanceModel[] = [
  useLiteStance as unknown as FittedStanceModel,
  miniLmStance as unknown as FittedStanceModel,
];

export interface ProjectsLinkDeps {
  /** `lexical` (its stemmer, for term statistics): absent, checks go without passage scores. */
  parts(): Promise<{
    store: Store;
    hybrid: HybridSearch;
    projects: ProjectStore;
    lexical?: Pick<LexicalSearch, 'stems'>;
  }>;
  semantic: Pick<SemanticSync, 'embed' | 'status'>;
  getAnswer(id: number): Promise<StoredAnswer>;
  /** The active generator (null: no backend); absent: claims are never extracted with an LLM. */
  llm?(): Promise<LlmDep | null>;
}

export type ProjectChecksApi = Pick<
  ProjectsApi,
  | 'checkProjectClaim'
  | 'cancelClaimCheck'
  | 'extractDraftClaims'
  | 'auditDraft'
  | 'replaceDraftCitation'
  | 'projectExports'
>;

export function createProjectsLink(deps: ProjectsLinkDeps): ProjectChecksApi {
  const running = new Map<string, { aborted: boolean }>();
  let judgeFor: { key: string; judge: EvidenceJudge } | null = null;
  // Claims of one project keep meeting the same documents: their splits and sentence vectors are
  // kept between checks (vectors with the judge, i.e. per model).
  const sentences = createSentenceCache();

  /** The evidence judge of the active model (rebuilt when the model changes). */
  function judge(): EvidenceJudge {
    const model = deps.semantic.status().model;
    if (!model) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: 'The embedding model is still loading; claim checks start once it is ready.',
      });
    }
    const key = `${model.id}@${model.version}`;
    if (judgeFor?.key === key) return judgeFor.judge;
    const fitted = FITTED_STANCE.find((f) => f.model === model.id && f.dim === model.dim);
    if (!fitted) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: `No stance model is fitted for ${model.id}; activate USE-lite or all-MiniLM-L6-v2 in Settings to check claims.`,
      });
    }
    const j = createEvidenceJudge({
      model: createStanceModel(fitted, model.dim),
      // The evidence gate `--task claims` measures (fitted on SciFact train): a labelled source
      // whose judgement and search position say it is not evidence counts as NEUTRAL.
      gate: evidenceGateFor(model.id),
      // The pair model (deps.semantic.pairVerifier) is not wired into the stance yet: its
      // train-side oracle figure (held-out SciFact train claims, ml/verifier/oracle_rules.py) does
      // not beat this stance model's cross-validated one, so the judge stays LLM-free and says so.
      embed: {
        claims: (texts) => deps.semantic.embed(texts, { role: 'query' }),
        // A check's sentences go out as one call, split over the workers in batched passes.
        sentences: cachedEmbed((texts) =>
          deps.semantic.embed(texts, { role: 'passage', spread: true }),
        ),
      },
    });
    judgeFor = { key, judge: j };
    return j;
  }

  /** The answer evaluator's passage scores over the library for the active model. */
  async function passageScoresFor(parts: {
    store: Store;
    hybrid: HybridSearch;
    lexical: Pick<LexicalSearch, 'stems'>;
  }): Promise<PassageScores> {
    const model = deps.semantic.status().model;
    return createPassageScores(
      await libraryRetrievalDeps(parts),
      await loadFittedModel(model?.id ?? 'use-lite'),
    );
  }

  /** A document and its provenance, or null when it was deleted. */
  async function source(
    store: Store,
    id: number,
  ): Promise<{ detail: DocumentDetail; provenance: Provenance } | null> {
    try {
      const detail = await store.getDocument(id);
      return { detail, provenance: provenanceOfDocument(detail) };
    } catch (err) {
      if (isAppError(err) && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  return {
    async checkProjectClaim(projectId, claimId, options = {}, requestId) {
      const { store, hybrid, projects, lexical } = await deps.parts();
      const claim = (await projects.claims(projectId)).find((c) => c.id === claimId);
      if (!claim) throw createError('NOT_FOUND', { reason: 'The claim was removed.' });
      const signal = { aborted: false };
      if (requestId) running.set(requestId, signal);
      try {
        const seen = new Map<number, Promise<Awaited<ReturnType<typeof source>>>>();
        const get = (id: number) => seen.get(id) ?? seen.set(id, source(store, id)).get(id)!;
        const result = await checkClaim(
          {
            judge: judge(),
            search: (r) => hybrid.search(r),
            // The answer evaluator's score of each source, which the evidence gate reads.
            ...(lexical
              ? { passageScores: await passageScoresFor({ store, hybrid, lexical }) }
              : {}),
            documentText: async (id) => (await get(id))?.detail.text ?? null,
            provenance: async (id) => (await get(id))?.provenance ?? null,
            sentences,
          },
          claim.text,
          {
            project: projectId,
            ...(options.minGrade ? { minGrade: options.minGrade } : {}),
            signal,
          },
        );
        const starts = new Map<number, PageStarts | null>();
        for (const e of result.evidence)
          starts.set(e.documentId, (await get(e.documentId))?.detail.pageStarts ?? null);
        const view: ClaimCheckView = toClaimView(
          result,
          options.minGrade ?? null,
          (id) => starts.get(id) ?? null,
        );
        if (!(await projects.saveClaimResult(claimId, view))) {
          throw createError('NOT_FOUND', { reason: 'The project or claim was deleted meanwhile.' });
        }
        const saved = (await projects.claims(projectId)).find((c) => c.id === claimId);
        if (!saved) throw createError('NOT_FOUND', { reason: 'The claim was removed.' });
        return saved;
      } finally {
        if (requestId) running.delete(requestId);
      }
    },

    async cancelClaimCheck(requestId) {
      const signal = running.get(requestId);
      if (signal) signal.aborted = true;
    },

    async extractDraftClaims(draft, options = {}, requestId): Promise<DraftClaims> {
      const body = parseDraftReferences(draft).body;
      const split = (note: string | null): DraftClaims => ({
        claims: extractClaims(body).map((c) => c.text),
        method: 'sentences',
        note,
      });
      if (!options.useLlm) return split(null);
      const llm = (await deps.llm?.()) ?? null;
      if (!llm) return split('No language model is active: the draft was split into sentences.');
      const controller = new AbortController();
      // cancelClaimCheck sets `aborted`; the generator listens to an AbortSignal.
      const flag = {
        get aborted() {
          return controller.signal.aborted;
        },
        set aborted(v: boolean) {
          if (v) controller.abort();
        },
      };
      if (requestId) running.set(requestId, flag);
      try {
        const r = await extractClaimsWithLlm(llm.generate, body, { signal: controller.signal });
        const note =
          r.method === 'sentences'
            ? `The language model (${llm.kind}) gave no usable claims: the draft was split into sentences.`
            : r.failedGroups > 0
              ? `The language model (${llm.kind}) failed on ${r.failedGroups} group(s) of sentences, kept as they were.`
              : null;
        return { claims: r.claims, method: r.method, note };
      } finally {
        if (requestId) running.delete(requestId);
      }
    },

    async auditDraft(input) {
      const { store } = await deps.parts();
      const docs = await store.listDocuments();
      const parsed = parseDraftReferences(input.draft);
      // An answer's references, then the draft's own reference lines (a replaced citation adds
      // one to an answer's draft too).
      const refs = new Map<string, { documentId: number | null; label: string }>();
      for (const r of input.references ?? []) refs.set(String(r.n), r);
      for (const [n, label] of parsed.references) {
        if (refs.has(n)) continue;
        refs.set(n, { documentId: matchReference(label, docs)?.id ?? null, label });
      }
      const j = judge();
      const rows: AuditRowView[] = [];
      for (const c of extractClaims(parsed.body)) {
        if (c.citations.length === 0) continue;
        const view = await j.claimView(c.text);
        for (const n of c.citations) {
          const ref = refs.get(n.trim()) ?? null;
          const doc = ref?.documentId == null ? null : await source(store, ref.documentId);
          const audit = await auditCitation(j, view, doc ? { text: doc.detail.text } : null);
          rows.push({
            claim: c.text,
            n,
            citedSource: ref?.label ?? `[${n}] (no reference given)`,
            documentId: doc ? doc.detail.id : null,
            status: audit.status,
            supportScore: audit.supportScore ?? null,
            stance: audit.stance ?? null,
            passage: audit.passage ? passageView(audit.passage, doc?.detail.pageStarts) : null,
            at: { start: c.start, end: c.end },
          });
        }
      }
      return rows;
    },

    async replaceDraftCitation(draft, at, n, label) {
      return replaceCitation(draft, at, n, label);
    },

    async projectExports(projectId, extra = {}): Promise<ProjectExportFiles> {
      const { store, projects } = await deps.parts();
      const project = (await projects.list()).find((p) => p.id === projectId);
      if (!project) throw createError('NOT_FOUND', { reason: 'The project was deleted.' });
      const documents = await store.listDocuments(await projects.documentIds(projectId));
      const answer = extra.answerId === undefined ? null : await deps.getAnswer(extra.answerId);
      return buildExports({
        project,
        documents,
        claims: await projects.claims(projectId),
        audit: extra.audit ?? [],
        answer,
        biblio: await createBiblioStore(store.sql).list(documents.map((d) => d.id)),
      });
    },
  };
}

/** An audited passage as the audit row shows it: text, offsets and its PDF pages. */
function passageView(
  p: { text: string; start: number; end: number },
  pageStarts: PageStarts | null | undefined,
): NonNullable<AuditRowView['passage']> {
  const pages = pagesOf(pageStarts, p.start, p.end);
  return { text: p.text, start: p.start, end: p.end, ...(pages ? { pages } : {}) };
}
