/**
 * Server configuration, read once from the environment. Everything a process needs to
 * start lives here so tests can build an app with overrides instead of touching env vars.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  defaultTenant: string;
  rootUsername?: string;
  rootPassword?: string;
  demoData: boolean;
  maxUploadMb: number;
  trustProxy: boolean;
  logLevel: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  loginRateLimit: { perUser: number; perAddress: number; windowSeconds: number };
  /** Open notification streams one user may hold (NOTIFICATION_STREAMS_PER_USER, default 8): a new one closes the oldest. */
  streamsPerUser: number;
  /** Slow and numerous clients (server/plugins/connections.ts). */
  connections: {
    /** Request headers must arrive within this (HEADERS_TIMEOUT_SECONDS, default 20). */
    headersTimeoutSeconds: number;
    /** A whole request, body included, must arrive within this, or it is cut and answered 408 (REQUEST_TIMEOUT_SECONDS, default 300: a 25 MB upload at 1 Mbit/s). */
    requestTimeoutSeconds: number;
    /** Connections one address may hold at once; 0 = no bound (MAX_CONNECTIONS_PER_ADDRESS, default 200; 0 by default behind TRUST_PROXY, where every connection comes from the proxy). */
    maxPerAddress: number;
  };
  /** An S3-compatible bucket for uploaded files; without it they live under DATA_DIR/files. */
  s3?: S3Config;
  /** FILES_SHARED=1: DATA_DIR/files is a folder every process shares (skips the start-up check of server/modules/files/shared-folder.ts). */
  filesShared: boolean;
  /** smtp(s)://user:pass@host:port: e-mail copies of notifications for users who ask for them. */
  smtpUrl?: string;
  /** The sender of those e-mails. */
  mailFrom: string;
  /** The centres' address with `{tenant}` for the centre's label (https://{tenant}.frontis.app): links in e-mails. */
  publicUrl?: string;
  /** Answers carry x-db-round-trips and x-db-statements: the database work the request cost (tests, bench). */
  dbCounts: boolean;
  /** Optional Sentry DSN host that the client reports to; only widens the CSP connect-src. */
  sentryDsn?: string;
  /** When to refuse requests at once rather than queue them (server/plugins/overload.ts). */
  overload: OverloadConfig;
  /**
   * A direct PostgreSQL URL (not through PgBouncer in transaction mode) for what needs a
   * session of its own: LISTEN for the notification bus and the migrations' advisory lock.
   * Defaults to DATABASE_URL.
   */
  databaseDirectUrl?: string;
}

/** The shedder's limits; 0 turns a check off. */
export interface OverloadConfig {
  /** Requests this process works on at once; beyond, 503 at once. */
  maxInFlight: number;
  /** The event loop's mean delay (ms) over the last sample beyond which requests are refused. */
  maxEventLoopDelayMs: number;
  /** How often the event loop delay is sampled (ms). */
  sampleIntervalMs: number;
  /** Requests waiting for a PostgreSQL pool connection beyond which new ones are refused. */
  maxPoolWaiting: number;
  /** Retry-After of a refusal, in seconds. */
  retryAfterSeconds: number;
}

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  return raw === '1' || raw === 'true' || raw === 'yes' || raw === 'on';
}

function text(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

export function loadConfig(env: Env = process.env): Config {
  return {
    port: int(env, 'PORT', 3000),
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir: text(env, 'DATA_DIR') ?? './data',
    databaseUrl: text(env, 'DATABASE_URL'),
    defaultTenant: (text(env, 'DEFAULT_TENANT') ?? 'demo').toLowerCase(),
    rootUsername: text(env, 'ROOT_USERNAME'),
    // Not trimmed: a password may legitimately start or end with a space.
    rootPassword: env.ROOT_PASSWORD ? env.ROOT_PASSWORD : undefined,
    demoData: flag(env, 'DEMO_DATA', false),
    maxUploadMb: int(env, 'MAX_UPLOAD_MB', 25, 1),
    trustProxy: flag(env, 'TRUST_PROXY', false),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    accessTtlSeconds: int(env, 'ACCESS_TTL_SECONDS', 900, 1),
    refreshTtlSeconds: int(env, 'REFRESH_TTL_SECONDS', 30 * 24 * 3600, 60),
    loginRateLimit: {
      perUser: int(env, 'LOGIN_RATE_PER_USER', 10, 1),
      perAddress: int(env, 'LOGIN_RATE_PER_ADDRESS', 50, 1),
      windowSeconds: int(env, 'LOGIN_RATE_WINDOW_SECONDS', 900, 1),
    },
    streamsPerUser: int(env, 'NOTIFICATION_STREAMS_PER_USER', 8, 1),
    connections: {
      headersTimeoutSeconds: int(env, 'HEADERS_TIMEOUT_SECONDS', 20, 1),
      requestTimeoutSeconds: int(env, 'REQUEST_TIMEOUT_SECONDS', 300, 1),
      maxPerAddress: int(env, 'MAX_CONNECTIONS_PER_ADDRESS', flag(env, 'TRUST_PROXY', false) ? 0 : 200),
    },
    smtpUrl: text(env, 'SMTP_URL'),
    mailFrom: text(env, 'MAIL_FROM') ?? 'Frontis <no-reply@frontis.invalid>',
    publicUrl: text(env, 'PUBLIC_URL'),
    dbCounts: flag(env, 'DB_COUNTS', false),
    sentryDsn: text(env, 'SENTRY_DSN') ?? text(env, 'VITE_SENTRY_DSN'),
    s3: s3Config(env),
    filesShared: flag(env, 'FILES_SHARED', false),
    overload: {
      maxInFlight: int(env, 'OVERLOAD_MAX_IN_FLIGHT', 32),
      maxEventLoopDelayMs: int(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 200),
      sampleIntervalMs: int(env, 'OVERLOAD_SAMPLE_INTERVAL_MS', 500, 10),
      maxPoolWaiting: int(env, 'OVERLOAD_MAX_POOL_WAITING', 32),
      retryAfterSeconds: int(env, 'OVERLOAD_RETRY_AFTER_SECONDS', 1, 1),
    },
    databaseDirectUrl: text(env, 'DATABASE_DIRECT_URL'),
  };
}

function s3Config(env: Env): S3Config | undefined {
  const bucket = text(env, 'S3_BUCKET');
  if (!bucket) return undefined;
  return {
    bucket,
    endpoint: text(env, 'S3_ENDPOINT'),
    region: text(env, 'S3_REGION') ?? 'us-east-1',
    accessKeyId: text(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: text(env, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', false),
  };
}
