/** What kind of expected failure a store operation hit; the HTTP layer maps each to a status. */
export type StoreErrorKind = 'invalid' | 'not_found' | 'conflict' | 'too_large';

/** An expected failure of a store operation (bad input, unknown revision, moved head, over a limit). */
export class StoreError extends Error {
  readonly kind: StoreErrorKind;
  /** On a moved branch head: the head it is at, so a client can rebase without reading it again. */
  readonly headRevision: number | undefined;
  /** On a merge's moved source branch: the head it is at, so a client can merge it without reading it again. */
  readonly fromHeadRevision: number | undefined;

  constructor(kind: StoreErrorKind, message: string, headRevision?: number, fromHeadRevision?: number) {
    super(message);
    this.name = 'StoreError';
    this.kind = kind;
    this.headRevision = headRevision;
    this.fromHeadRevision = fromHeadRevision;
  }
}

/** 404: a revision, checkpoint, branch or namespace that does not exist. */
export const notFoundError = (message: string): StoreError => new StoreError('not_found', message);
/** 409: the branch head is not the expected one, or a name is taken. */
export const conflictError = (message: string): StoreError => new StoreError('conflict', message);
/** 400: input the schema cannot catch (duplicates, empty lists). */
export const invalidError = (message: string): StoreError => new StoreError('invalid', message);
/** 413: more documents or bytes than the configured limits. */
export const tooLargeError = (message: string): StoreError => new StoreError('too_large', message);
