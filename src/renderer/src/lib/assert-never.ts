/** Makes a switch over a union exhaustive: adding a member without handling it fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
