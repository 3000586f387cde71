// HAProxy's configuration of the cluster (scripts/cluster): it resends a request to another
// process only where that is safe (docs/rules.md, "Exactly once"), and HAProxy itself accepts it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { haproxyConfig } from '../../scripts/cluster/haproxy';

const HAPROXY = '/usr/sbin/haproxy';

describe('the cluster HAProxy configuration', () => {
  const config = haproxyConfig(18020, [18021, 18022, 18023]);
  const backend = config
    .slice(config.indexOf('backend frontis'))
    .split('\n')
    .map((line) => line.trim());

  it('resends to another process, after a failed connection always, after an answer only a read or a keyed write', () => {
    expect(backend).toContain('option redispatch 1');
    const retryOn = backend
      .find((line) => line.startsWith('retry-on '))!
      .split(/\s+/)
      .slice(1);
    expect(retryOn).toContain('conn-failure');
    // Conditions after the request reached a process are disabled for an unkeyed write.
    expect(backend).toContain('acl safe_method method GET HEAD OPTIONS');
    expect(backend).toContain('acl keyed req.hdr(idempotency-key) -m found');
    expect(backend).toContain('http-request disable-l7-retry if !safe_method !keyed');
    expect(backend.filter((line) => /^server f\d 127\.0\.0\.1:1802\d check/.test(line))).toHaveLength(3);
    expect(backend).toContain('option httpchk GET /healthz');
  });

  // .ci/run installs HAProxy where it is missing.
  it('is accepted by HAProxy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
    try {
      const file = join(dir, 'haproxy.cfg');
      writeFileSync(file, config);
      expect(() => execFileSync(HAPROXY, ['-c', '-q', '-f', file], { stdio: 'pipe' })).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
