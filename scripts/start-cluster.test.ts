import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { haPorts, missingPackagesLine, nginxConfig, redisChildren, sentinelConfig } from './start-cluster.ts';

/**
 * The edge's directives (docs/operations.md#several-instances-redis, "The proxy's limits"): timeouts,
 * per-address limits, their keys and their 429.
 */
const EDGE_DIRECTIVE =
  /^\s*(?:client_\w+_timeout|client_max_body_size|limit_(?:conn|req)|keepalive_timeout|error_page|map |"~\^POST|default |return 429|add_header|proxy_(?:read|send)_timeout)/;

function edgeLines(conf: string): string[] {
  return conf
    .split('\n')
    .filter((line) => EDGE_DIRECTIVE.test(line))
    .map((line) => line.trim())
    .sort();
}

describe('npm run start:cluster', () => {
  it('names the OS packages it needs when one is missing', () => {
    expect(missingPackagesLine({ redis: '/usr/bin/redis-server', nginx: '/usr/sbin/nginx' })).toBeNull();
    expect(missingPackagesLine({ redis: null, nginx: '/usr/sbin/nginx' })).toBe(
      'start:cluster needs redis-server (Debian/Ubuntu: apt-get install redis-server); `npm start` runs one instance without them.',
    );
    expect(missingPackagesLine({ redis: null, nginx: null })).toMatch(
      /redis-server .* and nginx \(Debian\/Ubuntu: apt-get install nginx-light\)/,
    );
  });

  it('puts nginx in front of every instance, round robin, with long-poll timeouts above 25 s and X-Forwarded-For set', () => {
    const conf = nginxConfig({ servicePort: 8787, instancePorts: [8791, 8792] }, '/tmp/x');
    expect(conf).toContain('listen 127.0.0.1:8787;');
    expect(conf).toMatch(
      /upstream svc \{\s+server 127\.0\.0\.1:8791 max_fails=0;\s+server 127\.0\.0\.1:8792 max_fails=0;/,
    );
    expect(conf).not.toMatch(/least_conn|ip_hash|hash /);
    // a long poll's 25 s plus the instance's 5 s slot margin
    for (const [, seconds] of conf.matchAll(/proxy_(?:read|send)_timeout (\d+)s;/g))
      expect(Number(seconds)).toBeGreaterThan(30);
    expect(conf).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(conf).toContain('pid /tmp/x/nginx.pid;');
  });

  it('stops slow clients and floods with the same directives as deploy/nginx.conf', () => {
    const cluster = edgeLines(nginxConfig({ servicePort: 8787, instancePorts: [8791, 8792] }, '/tmp/x'));
    const deploy = edgeLines(readFileSync(new URL('../deploy/nginx.conf', import.meta.url), 'utf8'));
    expect(cluster).toEqual(deploy);
    expect(cluster).toEqual(
      expect.arrayContaining([
        'client_body_timeout 10s;',
        'limit_conn per_address 200;',
        'limit_req zone=browser_writes burst=60 nodelay;',
        'limit_req zone=partner_writes burst=400 nodelay;',
      ]),
    );
  });

  it('runs with --ha a primary, a replica of it and three sentinels watching it with quorum 2, all on loopback', () => {
    const children = redisChildren('/usr/bin/redis-server', { redisPort: 6380, ha: true }, '/tmp/c');
    expect(children.map((child) => child.name)).toEqual([
      'redis-primary',
      'redis-replica',
      'sentinel-1',
      'sentinel-2',
      'sentinel-3',
    ]);
    expect(children[1]!.args.join(' ')).toContain('--port 6381 --bind 127.0.0.1');
    expect(children[1]!.args.join(' ')).toContain('--replicaof 127.0.0.1 6380');
    expect(children[2]!.args).toEqual(['/tmp/c/sentinel/sentinel-26380.conf', '--sentinel', '--loglevel', 'warning']);
    expect(haPorts(6380).sentinels).toEqual([26380, 26381, 26382]);
    const conf = sentinelConfig(26380, 6380, '/tmp/c/sentinel');
    expect(conf).toContain('sentinel monitor svc 127.0.0.1 6380 2');
    expect(conf).toContain('bind 127.0.0.1');
    // without --ha: the one redis-server, as before
    expect(redisChildren('/usr/bin/redis-server', { redisPort: 6380, ha: false }, '/tmp/c').map((c) => c.name)).toEqual(
      ['redis'],
    );
  });
});
