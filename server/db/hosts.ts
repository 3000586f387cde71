/**
 * A DATABASE_URL naming several hosts, as `pg_autoctl show uri` prints it
 * (`postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write`). node-postgres takes one
 * host, so the writable one is found as libpq's target_session_attrs=read-write finds it: each
 * host in turn, the first that answers `pg_is_in_recovery()` false (with `any`, or none given,
 * the first that answers at all). New connections go to it; a connection that fails, or breaks,
 * has it found again (after a failover the old primary is gone and the new one is another host).
 */
import pg from 'pg';

export interface HostList {
  /** The URL once per host, each naming that host alone (target_session_attrs taken out). */
  urls: string[];
  /** Whether only a primary will do (read-write, primary). */
  readWrite: boolean;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i;

/** The hosts of a URL, or undefined for a URL of one host and no target_session_attrs (served as it is). */
export function parseHosts(url: string, setting = 'DATABASE_URL'): HostList | undefined {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error(`${setting} must be a postgres:// URL, got one that is not`);
  const [, scheme, userinfo = '', hostPart = '', rest = ''] = parts;
  const [path = '', query = ''] = rest.split('?', 2);
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs');
  const hosts = hostPart.split(',');
  if (hosts.length < 2 && attrs === null) return undefined;
  if (hosts.some((h) => h.trim() === '')) throw new Error(`${setting} names an empty host in "${hostPart}"`);
  if (attrs !== null && !['any', 'read-write', 'primary'].includes(attrs)) {
    throw new Error(`${setting}: target_session_attrs=${attrs} is not supported (any, read-write or primary)`);
  }
  params.delete('target_session_attrs');
  const tail = `${path}${params.size ? `?${params}` : ''}`;
  const urls = hosts.map((host) => {
    const single = `${scheme}${userinfo}${host.trim()}${tail}`;
    try {
      new URL(single);
    } catch {
      throw new Error(`${setting} names a host that is not one: "${host}"`);
    }
    return single;
  });
  return { urls, readWrite: attrs === 'read-write' || attrs === 'primary' };
}

/** The host connections go to, found again when one fails. */
export class HostTarget {
  #current: string;
  #finding: Promise<string> | undefined;

  private constructor(
    readonly list: HostList,
    first: string,
    private readonly setting: string,
    private readonly timeoutMs: number,
  ) {
    this.#current = first;
  }

  /** Finds the first suitable host; throws, naming the setting, when none answers. */
  static async open(list: HostList, setting: string, timeoutMs: number): Promise<HostTarget> {
    const target = new HostTarget(list, list.urls[0]!, setting, timeoutMs);
    await target.find();
    return target;
  }

  get current(): string {
    return this.#current;
  }

  /** Looks again, once at a time; until found, new connections go where they went. */
  find(): Promise<string> {
    this.#finding ??= this.search().finally(() => (this.#finding = undefined));
    return this.#finding;
  }

  /** Told of a failed or broken connection: look again in the background. */
  stale(): void {
    this.find().catch(() => undefined);
  }

  private async search(): Promise<string> {
    const failures: string[] = [];
    for (const url of this.list.urls) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: this.timeoutMs });
      client.on('error', () => undefined);
      try {
        await client.connect();
        const { rows } = await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
        if (this.list.readWrite && rows[0]?.standby) {
          failures.push(`${new URL(url).host}: a standby (read-only)`);
          continue;
        }
        this.#current = url;
        return url;
      } catch (error) {
        failures.push(`${new URL(url).host}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    throw new Error(`${this.setting}: no ${this.list.readWrite ? 'writable ' : ''}host answered (${failures.join('; ')})`);
  }
}

/** A node-postgres client class for a pool: each new connection goes to the target's current host and tells it when it fails. */
export function clientFor(target: HostTarget): typeof pg.Client {
  return class TargetClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionString: target.current });
      this.on('error', () => target.stale());
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
    override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | undefined {
      const ready = super
        .connect()
        .then(() => this.refuseStandby())
        .then(
          () => this as pg.Client,
          (error: unknown) => {
            target.stale();
            throw error;
          },
        );
      if (!callback) return ready;
      ready.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
      return undefined;
    }

    /**
     * As libpq does for read-write: a host found writable may have become a standby since (the
     * old primary back after a failover). Such a connection is refused as the database being
     * unavailable for the moment (503), and the primary is looked for again.
     */
    private async refuseStandby(): Promise<void> {
      if (!target.list.readWrite) return;
      const { rows } = await this.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
      if (!rows[0]?.standby) return;
      await this.end().catch(() => undefined);
      throw Object.assign(new Error(`${this.host}:${this.port} is a standby (read-only); looking for the primary`), { code: '08004' });
    }
  };
}
