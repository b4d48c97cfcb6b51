// Registry of non-retrieval eval tasks for `npm run eval -- --task <name>` (each prints its own
// JSON report). A task is one line here and one module.
import { runAnswersTask } from './answers-task';
import { runClaimsTask } from './claims-task';

export const TASKS: Record<string, (args: Record<string, string>) => Promise<void>> = {
  answers: runAnswersTask,
  claims: runClaimsTask,
};
