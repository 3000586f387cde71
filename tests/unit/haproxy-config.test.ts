// The cluster's HAProxy configuration (scripts/cluster/haproxy.ts): every process is checked on
// /healthz, a draining one is marked down before its drain's least length is over (so the
// proxy stops sending before the process stops listening), and a refused request is sent to
// another process. HAProxy itself is not run here (the cluster needs root and minutes).
import { describe, expect, it } from 'vitest';
import { CHECK, haproxyConfig, markedDownWithinMs } from '../../scripts/cluster/haproxy';
import { DRAIN_LINGER_MS } from '../../server/plugins/drain';

describe('the cluster HAProxy configuration', () => {
  const config = haproxyConfig(4020, [4021, 4022, 4023]);
  const lines = config.split('\n').map((l) => l.trim());

  it('checks every process on /healthz, expecting 200', () => {
    expect(lines).toContain('option httpchk GET /healthz');
    expect(lines).toContain('http-check expect status 200');
    const servers = lines.filter((l) => l.startsWith('server '));
    expect(servers.map((l) => l.split(' ')[2])).toEqual(['127.0.0.1:4021', '127.0.0.1:4022', '127.0.0.1:4023']);
    for (const server of servers) {
      expect(server).toContain(` check inter ${CHECK.interMs}ms fastinter ${CHECK.fastinterMs}ms `);
      expect(server).toContain(` fall ${CHECK.fall} `);
    }
    expect(lines).toContain('bind 127.0.0.1:4020');
  });

  it('marks a draining process down before it stops listening', () => {
    expect(markedDownWithinMs()).toBeLessThan(DRAIN_LINGER_MS);
  });

  it('sends a refused request to another process, and never cuts the requests a draining process still answers', () => {
    expect(lines).toContain('retry-on 503 conn-failure empty-response');
    expect(lines).toContain('option redispatch 1');
    expect(config).not.toContain('on-marked-down shutdown-sessions');
  });
});
