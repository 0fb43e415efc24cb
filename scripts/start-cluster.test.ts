import { describe, expect, it } from 'vitest';
import { missingPackagesLine, nginxConfig } from './start-cluster.ts';

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
    for (const [, seconds] of conf.matchAll(/proxy_(?:read|send)_timeout (\d+)s;/g))
      expect(Number(seconds)).toBeGreaterThan(25);
    expect(conf).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(conf).toContain('pid /tmp/x/nginx.pid;');
  });
});
