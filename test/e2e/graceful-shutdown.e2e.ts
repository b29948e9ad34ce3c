import { request } from 'node:http';
import { startTestService } from '../support/app';

describe('graceful shutdown', () => {
  it('finishes a request already in flight, then refuses new connections', async () => {
    const service = await startTestService();
    const { port } = new URL(service.url);
    // A request whose body is still arriving when shutdown begins.
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/health',
          headers: { 'content-type': 'application/json', 'content-length': '11' },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"a":');
      setTimeout(() => req.end('12345}'), 300);
    });
    await new Promise((r) => setTimeout(r, 100));
    const stopped = service.close();
    const answered = await response;
    // The route does not take POST: what matters is that it was answered, as problem+json.
    expect(answered.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(answered.body)).toHaveProperty('code');
    await stopped;
    await expect(fetch(`${service.url}/api/v1/health`)).rejects.toThrow();
  });
});
