import { BRANCH_PATTERN, MAX_NAME_LENGTH } from '../../../../../shared/store-api.js';

/**
 * What is wrong with a new branch's name as typed, checked against the branches already listed
 * (undefined: nothing, or nothing typed yet). The store still refuses a name taken meanwhile (409).
 */
export function branchNameProblem(
  name: string,
  namespace: string,
  existing: readonly { readonly name: string }[] | undefined,
): string | undefined {
  if (name === '') return undefined;
  if (!BRANCH_PATTERN.test(name)) return 'Branch name may use letters, digits, ".", "_", "/" and "-" only.';
  if (name.length > MAX_NAME_LENGTH) return `Branch name is too long: at most ${MAX_NAME_LENGTH} characters.`;
  if (existing?.some((branch) => branch.name === name))
    return `Branch name “${name}” is taken: ${namespace} already has a branch of that name.`;
  return undefined;
}
