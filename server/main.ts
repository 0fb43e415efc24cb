/** The only file with side effects: loadConfig → buildDeps → createApp → listen. */
import type { Server as HttpServer } from 'node:http';
import { Server as NetServer } from 'node:net';
import { createApp } from './app.ts';
import { buildDeps, scrapeReadings } from './boot.ts';
import { loadConfig, unknownVariableWarnings, type Config } from './config.ts';
import { ConfigError } from './errors.ts';
import { StoreUnavailableError } from './store/store.ts';
import { listenForMetrics, type MetricsListener } from './telemetry/metrics-listener.ts';
import { createTelemetry } from './telemetry/telemetry.ts';
import { walletTrustNotices } from './wallet/index.ts';

const SWEEP_EVERY_MS = 60_000;

/**
 * Stops listening (a new connection is refused: the proxy sends it to another instance) and
 * resolves once every open connection has closed, true; or after `ms`, false, having cut what was
 * left. Behind a proxy (`keepIdle`: SVC_TRUST_PROXY names one), an idle kept-alive connection is
 * left for the proxy to close: `net.Server`'s close, not `http.Server`'s, which closes every idle
 * one at once, racing the proxy's next request on it. Without one (a client connects directly,
 * as to `npm start`), idle connections close at once, as Node does.
 */
function drainConnections(server: HttpServer, ms: number, keepIdle: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => {
      server.closeAllConnections();
      resolve(false);
    }, ms);
    const closed = () => {
      clearTimeout(cut);
      resolve(true);
    };
    if (keepIdle) NetServer.prototype.close.call(server, closed);
    else server.close(closed);
  });
}

/**
 * One line for a port the service cannot listen on, naming the variable that sets it; null for
 * any other failure.
 */
function listenFailure(error: unknown, config: Config): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `port ${config.port} (SVC_PORT) on ${config.host} (SVC_HOST)`;
  if (code === 'EADDRINUSE') return `${where} is in use by another process; stop it or set SVC_PORT to a free port`;
  if (code === 'EACCES') return `${where} needs privileges this process lacks; use a port above 1023`;
  if (code === 'EADDRNOTAVAIL') return `${where}: this machine has no such address; set SVC_HOST to one of its own`;
  return null;
}

async function main(): Promise<void> {
  // Before the config: a misspelt variable is often why the config then fails.
  for (const line of unknownVariableWarnings(process.env)) console.warn(`svc: warning: ${line}`);
  const config = loadConfig();
  // Store notices (Redis lost or back) go to stderr until the app's logger exists, then to it.
  let notice = (line: string) => console.warn(`svc: ${line}`);
  // design.md §17: spans only with OTEL_EXPORTER_OTLP_ENDPOINT, metrics only with SVC_METRICS_PORT.
  // The OpenTelemetry SDK and exporter load only when asked for (their load time is seconds on a busy machine).
  const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import('./telemetry/tracing.ts')).startTracing(process.env)
    : null;
  const built = await buildDeps(config, { notice: (line) => notice(line) });
  const telemetry =
    tracing || config.metricsPort !== null
      ? await createTelemetry({
          metrics: config.metricsPort !== null && {
            processMetrics: true,
            longPollWaiters: () => built.longPolls.waiting,
            readings: scrapeReadings(built),
          },
          tracing: tracing !== null,
        })
      : undefined;
  const deps = { ...built, telemetry };
  const app = await createApp(deps);
  notice = (line) => app.log.warn({ store: deps.store.kind }, line);
  for (const line of walletTrustNotices(deps.wallet.trust, deps.config.mode)) app.log.warn(line);
  const sweeper = setInterval(() => {
    deps.store.sweep(deps.clock.now()).catch((err) => app.log.error({ err }, 'sweep failed'));
  }, SWEEP_EVERY_MS);
  sweeper.unref();

  let metricsListener: MetricsListener | null = null;
  let stopping = false;
  /**
   * design.md §23: stop accepting, answer every waiting long poll at once with its current status
   * (the widget polls again and reaches another instance), finish in-flight requests within
   * SVC_DRAIN_MS (then cut their connections), close the store, exit 0.
   *
   * The connections a proxy keeps alive (SVC_TRUST_PROXY names it) are not closed here: one closed
   * just as the proxy sends a request on it loses that request, and a proxy may not send a POST
   * twice (nginx answers 502). Each is served until the proxy closes it: every answer now says
   * `Connection: close` (app.ts), and an idle one is closed by the proxy after its own keep-alive
   * timeout, which must be shorter than SVC_DRAIN_MS (docs/operations.md#rolling-restarts).
   */
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal, waiting: deps.longPolls.waiting }, 'shutting down');
    clearInterval(sweeper);
    deps.longPolls.stop();
    const drained = await drainConnections(app.server, config.drainMs, config.trustProxy !== false);
    if (!drained) app.log.warn({ drainMs: config.drainMs }, 'connections still open after SVC_DRAIN_MS: closed them');
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'closing the server failed');
    }
    await metricsListener?.close();
    await tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'flushing the last spans failed'));
    try {
      await deps.store.close();
    } catch (err) {
      app.log.error({ err }, 'closing the store failed');
    }
    app.log.info('stopped');
    process.exit(0);
  };
  // `on`, not `once`: under `npm start` a Ctrl-C reaches the service twice (the process group's
  // signal, then the one `npm start` forwards); with `once` the second found no listener and
  // killed the process before the waiting long polls were answered.
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const line = listenFailure(error, config);
    throw line === null ? error : new ConfigError(line);
  }
  if (telemetry?.metrics && config.metricsPort !== null) {
    try {
      metricsListener = await listenForMetrics(telemetry.metrics.registry, {
        port: config.metricsPort,
        host: config.metricsHost,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      const where = `port ${config.metricsPort} (SVC_METRICS_PORT) on ${config.metricsHost} (SVC_METRICS_HOST)`;
      if (code === 'EADDRINUSE')
        throw new ConfigError(`${where} is in use by another process; set SVC_METRICS_PORT to a free port`);
      if (code === 'EADDRNOTAVAIL')
        throw new ConfigError(`${where}: this machine has no such address; set SVC_METRICS_HOST to one of its own`);
      throw error;
    }
  }
  // deps.config, not config: with SVC_MODE unset the store's own mode is the one this process runs in.
  const observed = {
    ...(metricsListener ? { metrics: metricsListener.url } : {}),
    ...(tracing ? { traces: 'otlp' } : {}),
  };
  app.log.info({ mode: deps.config.mode, store: deps.store.kind, url: config.publicUrl, ...observed }, 'service ready');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(`svc: ${err.message}`);
  } else if (err instanceof StoreUnavailableError) {
    console.error(`svc: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
