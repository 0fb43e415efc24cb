/**
 * The example identity provider as a process (`npm start` runs it beside the service in sandbox,
 * design.md §12): the sandbox personas as accounts, the fixture provider idp_example as its one client.
 * The only file here with side effects.
 *
 *   npx tsx server/sandbox/example-idp/main.ts
 */
import { loadPersonas } from '../personas.ts';
import { startExampleProvider } from './provider.ts';
import { readExampleSetup } from './setup.ts';

async function main(): Promise<void> {
  const setup = readExampleSetup(process.env);
  const provider = await startExampleProvider({
    port: setup.port,
    host: setup.host,
    issuer: setup.issuer,
    clients: [setup.client],
    personas: loadPersonas(),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    // Its port is its issuer's (the fixture idp_example's, which the service registers too).
    throw new Error(
      `port ${setup.port} (the issuer ${setup.issuer} of idp_example in SVC_PROVIDER_FIXTURES) on ${setup.host} ` +
        'is in use by another process; stop it, or give idp_example an issuer on a free port',
    );
  });
  console.log(`example identity provider: issuer ${provider.issuer}, listening on ${provider.url}`);
  const stop = (): void => {
    provider.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`example identity provider: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
