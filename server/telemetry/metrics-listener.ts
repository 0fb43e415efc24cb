/**
 * The metrics listener (design.md §17): Prometheus text at GET /metrics on its own port
 * (SVC_METRICS_PORT) and address (SVC_METRICS_HOST, 127.0.0.1 by default), never on the public
 * port; anything else is 404. A plain node:http server: a scrape goes through none of the app's
 * hooks, so it is neither logged nor counted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: string;
  close(): Promise<void>;
}

/**
 * @example const listener = await listenForMetrics(metrics.registry, { port: 9464, host: '127.0.0.1' })
 */
export async function listenForMetrics(
  registry: Registry,
  where: { port: number; host: string },
): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
