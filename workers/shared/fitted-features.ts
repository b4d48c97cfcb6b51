// The loader check of the shipped fitted files: a model whose feature names are not all computed
// by the code that scores it is refused with FITTED_MISMATCH naming the step that refits it.
import { createError } from './errors';

const checked = new WeakSet<object>();

/**
 * Throws FITTED_MISMATCH when `model.features` names a feature outside `known` (the code's list),
 * or lists one twice. `file` is the fitted file's path; `step` the `npm run fit` step that refits
 * it. Each model object is checked once.
 */
export function assertFittedFeatures(
  model: { readonly features: readonly string[] },
  known: readonly string[],
  file: string,
  step: string,
): void {
  if (checked.has(model)) return;
  const codeNames = new Set(known);
  const unknown = model.features.filter((f) => !codeNames.has(f));
  const twice = model.features.filter((f, i) => model.features.indexOf(f) !== i);
  if (unknown.length || twice.length) {
    const what = unknown.length
      ? `features the code does not compute (${unknown.join(', ')})`
      : `a feature twice (${twice.join(', ')})`;
    throw createError('FITTED_MISMATCH', {
      reason: `${file} was fitted on ${what}: refit it with \`npm run fit -- ${step}\`.`,
      file,
      step,
      unknown,
    });
  }
  checked.add(model);
}
