/** Why talking to the provider failed: it refused (`rejected`), or it could not be reached or understood (`unavailable`). */
export class OidcFailure extends Error {
  constructor(
    readonly kind: 'rejected' | 'unavailable',
    message: string,
    /**
     * A refresh token the provider issued before the failure (its answer arrived, then failed a check
     * here): a provider that rotates refresh tokens has made the one sent worthless, so this one is kept.
     */
    readonly refreshToken?: string,
  ) {
    super(message);
    this.name = 'OidcFailure';
  }
}
