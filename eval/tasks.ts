// Registry of non-retrieval eval tasks for `npm run eval -- --task <name>` (each prints its own
// JSON report). A task is one line here and one module.
import { runAnswersTask } from './answers-task';
import type { OutOfFold } from './claims-pipeline';
import { runClaimsTask } from './claims-task';

/** What the tasks take from the fits (ml/eval-fits.ts), passed in by the CLI (eval/run.ts). */
export interface TaskFits {
  outOfFold: OutOfFold;
}

export const TASKS: Record<
  string,
  (args: Record<string, string>, fits: TaskFits) => Promise<void>
> = {
  claims: (args, fits) => runClaimsTask(args, fits.outOfFold),
  answers: (args) => runAnswersTask(args),
};
