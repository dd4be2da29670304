import type { Duplex } from 'node:stream';
import { AppError } from '../errors.js';
import { problemDocument } from './problem.js';
import { API_CSP } from './security-headers.js';

/**
 * Node's HTTP parser refuses some requests before Koa sees them: headers over 16 KiB, a malformed
 * request line, a request that took too long to arrive. Node would answer those with a bare status
 * line; this answers them with a problem document like every other refusal, then closes the
 * connection (what follows on it cannot be trusted to be a request).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const problem = toProblem(error.code);
  const doc = problemDocument(problem);
  const body = JSON.stringify(doc);
  socket.end(
    `HTTP/1.1 ${problem.status} ${String(doc.title)}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Security-Policy: ${API_CSP}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function toProblem(code: string | undefined): AppError {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new AppError('headers_too_large', 'The request headers are too large (16 KiB at most)');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new AppError('request_timeout', 'The request did not arrive in time');
  return new AppError('malformed_request', 'The request is not valid HTTP');
}
