/**
 * Makes a switch over a union exhaustive: adding a member without handling it fails to compile. At run
 * time (a value from outside the types, say) it throws, naming `what` was unexpected.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
