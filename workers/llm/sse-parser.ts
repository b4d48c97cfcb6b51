// Server-sent events, parsed in linear time under a byte budget: each decoded chunk is searched
// for line ends once, from where the last search stopped, and an unfinished line is kept as a
// list of pieces joined once when its end arrives (never re-scanned, never re-concatenated per
// chunk). One event larger than `maxEventChars` ends the stream with REPLY_TOO_LARGE before it is
// held whole. Owns only the SSE framing.
import { createError } from '../shared/errors';

/** 2 MB of event text: a 200 KB answer escaped as JSON (\uXXXX pairs: 6 bytes a char) fits. */
export const MAX_SSE_EVENT_CHARS = 2 * 1024 * 1024;

export interface SseParser {
  /** Feeds decoded text; returns the `data` payloads of the events it completed. */
  push(text: string): string[];
  /** Ends the input; returns the last event's data when the stream ended without a blank line. */
  end(): string[];
  /** Characters looked at or copied so far (tests: stays proportional to the input). */
  readonly work: number;
}

/** @throws AppError REPLY_TOO_LARGE (from push) when one event passes `maxEventChars`. */
export function createSseParser(maxEventChars = MAX_SSE_EVENT_CHARS): SseParser {
  let pending: string[] = []; // pieces of the unfinished line
  let pendingChars = 0;
  let data: string[] = [];
  let dataChars = 0;
  let work = 0;

  function tooLarge(): never {
    throw createError('REPLY_TOO_LARGE', {
      reason: `The endpoint sent one event of more than ${Math.round(maxEventChars / 1024)} KB.`,
    });
  }

  function line(text: string, out: string[]): void {
    const l = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (l === '') {
      if (data.length > 0) out.push(data.join('\n'));
      data = [];
      dataChars = 0;
    } else if (l.startsWith('data:')) {
      const value = l.charCodeAt(5) === 0x20 ? l.slice(6) : l.slice(5);
      data.push(value);
      dataChars += value.length;
      if (dataChars > maxEventChars) tooLarge();
    } // comments (":") and other fields (event:, id:, retry:) are ignored
  }

  return {
    push(text) {
      const out: string[] = [];
      let from = 0;
      for (;;) {
        const nl = text.indexOf('\n', from);
        if (nl < 0) break;
        work += nl - from + 1;
        const piece = text.slice(from, nl);
        if (pending.length > 0) {
          pending.push(piece);
          work += pendingChars + piece.length;
          line(pending.join(''), out);
          pending = [];
          pendingChars = 0;
        } else line(piece, out);
        from = nl + 1;
      }
      if (from < text.length) {
        work += text.length - from;
        pending.push(text.slice(from));
        pendingChars += text.length - from;
        if (pendingChars > maxEventChars) tooLarge();
      }
      return out;
    },
    end() {
      const out: string[] = [];
      if (pending.length > 0) line(pending.join(''), out);
      pending = [];
      if (data.length > 0) out.push(data.join('\n'));
      data = [];
      return out;
    },
    get work() {
      return work;
    },
  };
}
