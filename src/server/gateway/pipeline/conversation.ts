import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientFormat } from '../formats/codec.js';
import { StreamError } from '../formats/stream-error.js';
import { UpstreamError } from '../providers/upstream-error.js';
import { jsonBody, textBody } from '../traffic/traffic-log.js';
import type { GatewayServices } from './gateway-services.js';
import { finishClientGone, watchClient } from './client-connection.js';
import { contextOf } from './request-context.js';
import { runPolicyStages } from './stages/policy-stages.js';
import { finishRequest } from './stages/finish.js';
import { resolveConversationModel } from './stages/resolve-model.js';
import { ClientClosedError, withFallback } from './stages/route-deployment.js';
import { relayStream } from './stream-writer.js';

/** The body fields the pipeline reads (the format schemas validated the rest). */
type ConversationBody = Record<string, unknown> & {
  model: string;
  stream?: boolean | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
};

/** What the pipeline changed in the client's body (shown in the traffic view as the forwarded body). */
function forwardedPatch(body: ConversationBody): Record<string, unknown> {
  const patch: Record<string, unknown> = { model: body.model };
  if (body.max_tokens != null) patch.max_tokens = body.max_tokens;
  if (body.max_completion_tokens != null) patch.max_completion_tokens = body.max_completion_tokens;
  return patch;
}

/** What the client may see of a failure inside a started stream. */
function describeStreamError(error: unknown): string {
  if (error instanceof StreamError || error instanceof UpstreamError) return error.message;
  return 'the upstream stream failed; see the gateway log for this request id';
}

/**
 * Chat completions and Messages: the stages after authentication, in the documented order —
 * resolve model, policy stages (extension points), route with fallback, provider, relay, finish.
 * JSON answers are returned for Fastify to send (the onResponse hook finishes them); streams are
 * written here and finished when they end.
 */
export async function handleConversation(
  format: ClientFormat,
  request: FastifyRequest,
  reply: FastifyReply,
  services: GatewayServices,
): Promise<unknown> {
  const ctx = contextOf(request);
  const body = request.body as ConversationBody;
  resolveConversationModel(ctx, body, services.registry);
  ctx.stream = body.stream === true;
  if (services.policy.length > 0) {
    const outcome = await runPolicyStages(services.policy, { ctx, format, body, reply });
    if (outcome !== undefined) {
      ctx.responseBody = { kind: 'value', value: outcome.body };
      return outcome.body;
    }
  }
  if (request.rawBody !== null) ctx.forwardedBody = jsonBody(request.rawBody, forwardedPatch(body));

  const watch = watchClient(reply);
  let execution;
  try {
    execution = await withFallback(
      ctx,
      services.registry.deploymentsFor(ctx.model!),
      services.health,
      watch,
      (deployment) =>
        services.providers.executeChat({
          format,
          body,
          deployment,
          signal: watch,
          requestId: ctx.requestId,
          headers: request.headers,
        }),
    );
  } catch (error) {
    if (error instanceof ClientClosedError) return finishClientGone(ctx, reply, services);
    throw error;
  } finally {
    watch.release();
  }
  reply.header('x-gateway-deployment', ctx.deployment!.id);
  const restore = services.output.piiRestore;

  if (execution.kind === 'json') {
    ctx.usage = execution.usage;
    // Serialised here (as Fastify would) so the traffic view keeps the text, not the object; the
    // provider's own text when it could forward the upstream's bytes.
    const text = restore
      ? JSON.stringify(restore.json(ctx, execution.body))
      : (execution.text ?? JSON.stringify(execution.body));
    ctx.responseBody = jsonBody(text);
    return reply.type('application/json; charset=utf-8').send(text);
  }

  const outcome = await relayStream(reply, execution.events, {
    abort: () => watch.abort(),
    errorFrame: (message) => services.providers.errorFrame(format, message),
    describeError: describeStreamError,
    ...(restore ? { transform: (frame: string) => restore.frame(ctx, frame) } : {}),
  });
  ctx.usage = execution.usage();
  ctx.responseBody = textBody(outcome.transcript, outcome.truncated);
  if (outcome.clientGone) return finishClientGone(ctx, reply, services);
  // The provider layer turns upstream failures into an error frame itself; a throw here is unexpected.
  const failure = outcome.error ?? execution.error?.();
  if (failure !== undefined) {
    ctx.errorType = 'upstream_error';
    if (!(failure instanceof StreamError || failure instanceof UpstreamError))
      request.log.error({ err: failure }, 'stream relay failed');
  }
  finishRequest(ctx, 200, services);
  return reply;
}
