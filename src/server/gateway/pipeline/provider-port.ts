import type { ClientFormat } from '../formats/codec.js';
import type { EmbeddingsBody, EmbeddingsResponse } from '../formats/embeddings/embeddings-schema.js';
import type { Usage } from '../formats/ir.js';
import type { GatewayDeployment } from '../model-registry/deployment.js';
import type { CancelSignal } from '../providers/types.js';

/** The answer of a chat call: JSON, or ready SSE frames in the client's format. */
export type ChatExecution =
  | { readonly kind: 'json'; readonly body: unknown; readonly text?: string; readonly usage: Usage }
  | {
      readonly kind: 'stream';
      readonly events: AsyncIterable<string>;
      usage(): Usage;
      /** The failure that ended a started stream (the provider layer already wrote its error frame). */
      error?(): Error | undefined;
    };

/** Arguments of a chat call. */
export interface ChatCall {
  readonly format: ClientFormat;
  readonly body: Record<string, unknown>;
  readonly deployment: GatewayDeployment;
  readonly signal: CancelSignal;
  readonly requestId: string;
  /** The client's headers; the provider layer forwards only what is safe (anthropic-beta on the native path). */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** Arguments of an embeddings call. */
export interface EmbeddingsCall {
  readonly body: EmbeddingsBody;
  readonly deployment: GatewayDeployment;
  readonly signal: CancelSignal;
  readonly requestId: string;
  /** The caller's own provider key (passthrough), used instead of the deployment's. */
  readonly apiKeyOverride?: string;
}

/**
 * What the pipeline needs from the provider layer. Calls reject with an UpstreamError before they
 * resolve (so another deployment can be tried before any byte reaches the client).
 */
export interface ProviderPort {
  executeChat(call: ChatCall): Promise<ChatExecution>;
  executeEmbeddings(call: EmbeddingsCall): Promise<{ body: EmbeddingsResponse; usage: Usage }>;
  inferProvider(model: string, deployments: readonly GatewayDeployment[]): string | undefined;
  /**
   * What keeps a deployment from ever being called (an unknown provider, no base URL anywhere), worded
   * `<field> <problem>`; undefined when it can be called. Lets the admin API refuse it at save.
   */
  deploymentProblem(deployment: GatewayDeployment): string | undefined;
  /** The frame reporting an error after a stream started, in the client's format. */
  errorFrame(format: ClientFormat, message: string): string;
}
