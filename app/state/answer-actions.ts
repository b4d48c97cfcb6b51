// What the Answer and Diagnostics views do: ask (streamed tokens arrive through a Comlink proxy),
// cancel, open a citation at its exact offsets, copy / download Markdown, the history and its
// export, the diagnostics. All work runs in the workers; these only call them and update state.
import { webProvidersFlag } from '../lib/browser-flags';
import { downloadText as download } from '../lib/download';
import { frameBatched } from '../lib/frame-batched';
import { answerToMarkdown } from '../answer/answer-markdown';
import { Comlink, answersClient, connectWeb, libraryClient, llmClient } from '../clients';
import { MAX_QUESTION_CHARS, type AnswerReference } from '../../workers/shared/answer-api';
import { useAppStore } from './app-store';
import { useAnswerStore } from './answer-store';

const answers = useAnswerStore.getState;
const app = useAppStore.getState;

let webConnected: Promise<void> | null = null;
/**
 * The web worker is started only when a question is asked that the web step may help: web help
 * allowed, and a provider on (or not known to be off).
 */
function ensureWeb(allowWeb: boolean): Promise<void> {
  if (!allowWeb || webProvidersFlag.knownOff()) return Promise.resolve();
  return (webConnected ??= connectWeb().catch(() => undefined));
}

/** The backend the Answer view offers (generated answers need one). */
export async function refreshLlmKind(): Promise<void> {
  try {
    answers().setLlmKind((await llmClient().status()).active.kind);
  } catch {
    answers().setLlmKind('none');
  }
}

let askSeq = 0;

/** Asks the current question. Empty: a message, nothing sent; too long: cut with a notice. */
export async function askQuestion(): Promise<void> {
  const { question, modeChoice, allowWeb, maxHops, llmKind } = answers();
  if (!question.trim()) {
    answers().setProblem('Type a question first: the answer is built from your library.');
    return;
  }
  if (question.length > MAX_QUESTION_CHARS) {
    answers().setProblem(
      `Your question is ${question.length.toLocaleString()} characters long; only the first ${MAX_QUESTION_CHARS.toLocaleString()} are used.`,
    );
  }
  const id = `answer-${++askSeq}`;
  answers().setAsking(id);
  answers().setStreamed('');
  const mode =
    modeChoice === 'auto' ? (llmKind !== 'none' ? 'generated' : 'extractive') : modeChoice;
  try {
    await ensureWeb(allowWeb);
    const show = frameBatched((text) => {
      if (answers().asking === id) answers().setStreamed(text);
    });
    const answer = await answersClient().ask(
      { question, mode, allowWeb, allowLlm: llmKind !== 'none', ...(maxHops ? { maxHops } : {}) },
      id,
      Comlink.proxy(show),
    );
    if (answers().asking === id) {
      answers().setAnswer(answer);
      app().setOpen(null);
    }
    void refreshHistory();
  } catch (err) {
    if (answers().asking === id) app().notifyError(err);
  } finally {
    if (answers().asking === id) {
      answers().setAsking(null);
      answers().setStreamed('');
    }
  }
}

export async function cancelAnswer(): Promise<void> {
  const id = answers().asking;
  if (id) await answersClient().cancelAnswer(id);
}

/**
 * Opens the cited document with the strip's exact characters highlighted; a PDF opens on the
 * page view (the page found from the quote), with the text view behind it.
 */
export async function openCitation(ref: AnswerReference): Promise<void> {
  if (ref.documentId === null || ref.missing) return;
  try {
    const detail = await libraryClient().getDocument(ref.documentId);
    const range = { start: ref.start, end: ref.end };
    // A PDF's citation opens on its page, the quote highlighted; the text view is one key away.
    const page =
      detail.mime === 'application/pdf'
        ? {
            quote: detail.text.slice(ref.start, ref.end),
            ...(ref.pages ? { page: ref.pages.first } : {}),
          }
        : null;
    app().setOpen({ detail, chunkSeq: null, range, page });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'NOT_FOUND') {
      app().notifyError(err);
      return;
    }
    // Deleted since the answer was made: show it as missing, never fail.
    const current = answers().answer;
    if (current)
      answers().setAnswer({
        ...current,
        references: current.references.map((r) => (r.n === ref.n ? { ...r, missing: true } : r)),
      });
  }
}

export async function refreshHistory(): Promise<void> {
  try {
    answers().setHistory(await answersClient().listAnswers(100));
  } catch (err) {
    app().notifyError(err);
  }
}

export async function showKeptAnswer(id: number): Promise<void> {
  try {
    answers().setAnswer(await answersClient().getAnswer(id));
    app().setOpen(null);
  } catch (err) {
    app().notifyError(err);
  }
}

export async function deleteKeptAnswer(id: number): Promise<void> {
  try {
    await answersClient().deleteAnswer(id);
    if (answers().answer?.id === id) answers().setAnswer(null);
    await refreshHistory();
  } catch (err) {
    app().notifyError(err);
  }
}

const stamp = () => new Date().toISOString().slice(0, 10);

export async function copyAnswerMarkdown(): Promise<void> {
  const answer = answers().answer;
  if (!answer) return;
  try {
    await navigator.clipboard.writeText(answerToMarkdown(answer));
    app().notify('info', 'The answer is on the clipboard as Markdown.');
  } catch {
    app().notify('error', 'The browser refused the clipboard: use “Download Markdown” instead.');
  }
}

export function downloadAnswerMarkdown(): void {
  const answer = answers().answer;
  if (answer) download(answerToMarkdown(answer), 'text/markdown', `sift-answer-${answer.id}.md`);
}

export async function exportAnswerHistory(): Promise<void> {
  try {
    download(
      await answersClient().exportAnswers(),
      'application/json',
      `sift-answers-${stamp()}.json`,
    );
  } catch (err) {
    app().notifyError(err);
  }
}

export async function refreshDiagnostics(): Promise<void> {
  try {
    answers().setDiagnostics(await answersClient().answerDiagnostics());
  } catch (err) {
    app().notifyError(err);
  }
}
