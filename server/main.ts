/** The only file with side effects: loadConfig → buildDeps → createApp → listen. */
import { createApp } from './app.ts';
import { buildDeps } from './boot.ts';
import { ConfigError, loadConfig } from './config.ts';

const SWEEP_EVERY_MS = 60_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await buildDeps(config);
  const app = await createApp(deps);
  const sweeper = setInterval(() => {
    deps.store.sweep(deps.clock.now()).catch((err) => app.log.error({ err }, 'sweep failed'));
  }, SWEEP_EVERY_MS);
  sweeper.unref();

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    clearInterval(sweeper);
    await app.close();
    await deps.store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ mode: config.mode, store: deps.store.kind, url: config.publicUrl }, 'service ready');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(`svc: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
