/**
 * `svc --cluster <command>`: the command on the store of `npm run start:cluster`
 * (scripts/start-cluster.ts; docs/operations.md, "Several instances (Redis)"), found as that
 * script finds it: Redis on 127.0.0.1 at SVC_CLUSTER_REDIS_PORT (6380), the instances' shared
 * master key in SVC_CLUSTER_DIR (./data/cluster)/master.key. The rest of the environment is the
 * operator's, as for any command (SVC_MODE, SVC_NULLIFIER_KEY for a production cluster).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MASTER_KEY_FILE } from '../crypto/master-key.ts';

/** scripts/start-cluster.ts's defaults; the script reads the same two variables. */
export const CLUSTER_DEFAULTS = { dir: 'data/cluster', redisPort: 6380 } as const;

/** What --cluster sets itself: the environment must leave them to it. */
const OWNED = ['SVC_REDIS_URL', 'SVC_REDIS_PREFIX', 'SVC_MASTER_KEY', 'SVC_MASTER_KEY_PREVIOUS'] as const;

export type ClusterEnvironment =
  { ok: true; env: NodeJS.ProcessEnv; redisUrl: string } | { ok: false; problem: string; code: 1 | 2 };

/**
 * `env` with the cluster's store in it, or why not.
 *
 * @example clusterEnvironment(process.env, process.cwd()) // { ok: true, env: { …, SVC_REDIS_URL: 'redis://127.0.0.1:6380', SVC_MASTER_KEY: '…' } }
 */
export function clusterEnvironment(env: NodeJS.ProcessEnv, cwd: string): ClusterEnvironment {
  const set = OWNED.find((name) => env[name]);
  if (set)
    return { ok: false, code: 2, problem: `--cluster names the store itself: unset ${set}, or leave out --cluster` };
  const portText = env.SVC_CLUSTER_REDIS_PORT || String(CLUSTER_DEFAULTS.redisPort);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65_535)
    return { ok: false, code: 2, problem: `SVC_CLUSTER_REDIS_PORT must be a port number, got "${portText}"` };
  const keyFile = join(resolve(cwd, env.SVC_CLUSTER_DIR || CLUSTER_DEFAULTS.dir), MASTER_KEY_FILE);
  let masterKey: string;
  try {
    masterKey = readFileSync(keyFile, 'utf8').trim();
  } catch (cause) {
    return {
      ok: false,
      code: 1,
      problem:
        `cannot read the cluster's master key ${keyFile} (${(cause as NodeJS.ErrnoException).code ?? 'error'}); ` +
        '`npm run start:cluster` makes it at its first start (SVC_CLUSTER_DIR moves it)',
    };
  }
  const redisUrl = `redis://127.0.0.1:${port}`;
  return { ok: true, redisUrl, env: { ...env, SVC_REDIS_URL: redisUrl, SVC_MASTER_KEY: masterKey } };
}
