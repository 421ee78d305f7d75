/** Why talking to the provider failed: it refused (`rejected`), or it could not be reached or understood (`unavailable`). */
export class OidcFailure extends Error {
  constructor(
    readonly kind: 'rejected' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'OidcFailure';
  }
}
