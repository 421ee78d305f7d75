/** Why a request ended before its answer: its client left, or the gateway's shutdown cancelled it. */
export type RequestEndReason = 'client_left' | 'shutting_down';

/**
 * The request ended before an answer could be sent. After `client_left` nothing can be sent (it is
 * accounted as 499); after `shutting_down` the client is still there and is told why (503).
 */
export class RequestEndedError extends Error {
  constructor(readonly reason: RequestEndReason) {
    super(reason === 'client_left' ? 'client closed the connection' : 'the gateway is shutting down');
    this.name = 'RequestEndedError';
  }
}
