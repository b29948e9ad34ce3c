import { connect, type Socket } from 'node:net';

/** What came back on a raw connection: everything the server wrote until it closed (or we gave up). */
export interface RawAnswer {
  text: string;
  /** The status code of the first response line, or null when none came. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection. */
  closed: boolean;
}

export function parseAnswer(text: string, closed: boolean): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine, ...lines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    text,
    status: match ? Number(match[1]) : null,
    headers,
    body: end === -1 ? '' : text.slice(end + 4),
    closed,
  };
}

/**
 * Sends bytes exactly as given (no client library would send a malformed request) and collects
 * the answer until the server closes the connection or `timeoutMs` passes.
 */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket: Socket = connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), false));
    }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A server that answers and then resets is still an answer.
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') {
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), true));
    });
  });
}
