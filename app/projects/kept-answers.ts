// The answers kept in the library (newest first), for the Projects view's pickers: audit an
// answer, add the documents an answer cites. Loaded once per mounted picker.
import { useEffect, useState } from 'react';
import { answersClient } from '../clients';
import type { AnswerSummary } from '../../workers/shared/answer-history-api';

export function useKeptAnswers(limit = 50): AnswerSummary[] {
  const [answers, setAnswers] = useState<AnswerSummary[]>([]);
  useEffect(() => {
    let live = true;
    void answersClient()
      .listAnswers(limit)
      .then((a) => live && setAnswers(a))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [limit]);
  return answers;
}
