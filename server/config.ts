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
    /** Sockets listening on the port at once, each accepting one new connection per turn of the event loop, where Node can share a port (22.12 and later, on Linux); 1 elsewhere (LISTEN_SOCKETS, default 8). */
    listenSockets: number;
    /** Once the grace is over, a request body must have averaged at least this since it began, or it is cut and answered 408; 0 = no minimum (MIN_BODY_BYTES_PER_SECOND, default 1024). */
    minBodyBytesPerSecond: number;
    /** Seconds any body may take before the minimum rate applies (BODY_GRACE_SECONDS, default 10). */
    bodyGraceSeconds: number;
  };
  /** A stopping process (SIGTERM) finishes what it holds within this, then cuts what is left and exits (DRAIN_SECONDS, default 20). */
  drainSeconds: number;
  /** An S3-compatible bucket for uploaded files; without it they live under DATA_DIR/files. */
  s3?: S3Config;
  /** FILES_SHARED=1: DATA_DIR/files is a folder every process shares (skips the start-up check of server/modules/files/shared-folder.ts). */
  filesShared: boolean;
  /** smtp(s)://user:pass@host:port: e-mail copies of notifications for users who ask for them. */
  smtpUrl?: string;
  /** The sender of those e-mails. */
  mailFrom: string;
  /** The base of a Twilio-compatible Messages API (SMS_URL, e.g. https://api.twilio.com): SMS to families. Unset: SMS are kept in the log, not sent. */
  smsUrl?: string;
  /** The account (SMS_ACCOUNT) in the API's path and basic auth. */
  smsAccount?: string;
  /** The account's token (SMS_TOKEN): basic auth and the key of the delivery reports' signatures. */
  smsToken?: string;
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
  /** Seconds an absence notice waits before it is sent, so a mark undone within them sends nothing (ABSENCE_GRACE_SECONDS, default 300). */
  absenceGraceSeconds: number;
  /** How often the outbox of messages to families is swept for due rows (OUTBOX_SWEEP_SECONDS, default 30). */
  outboxSweepSeconds: number;
  /** Sending attempts of one outbox message before it is given up (OUTBOX_MAX_ATTEMPTS, default 8). */
  outboxMaxAttempts: number;
  /** The base of AADE's myDATA REST API (MYDATA_URL; AADE's test endpoint by default): receipts are sent to `${aadeUrl}/SendInvoices`. */
  aadeUrl: string;
  /** How often each process sends the receipts due to myDATA (MYDATA_EVERY_SECONDS, default 30). */
  aadeEverySeconds: number;
  /** How often the in-app notifications of time (unpaid months, lessons still waiting) are computed (NOTIFICATIONS_EVERY_SECONDS, default 600). */
  notificationsEverySeconds: number;
  /** FRONTIS_TODAY (YYYY-MM-DD): every centre's date pretends to be this one (tests, demonstrations); what is due follows it. */
  today?: string;
  /** The hour, Greek time, of the embedded database's nightly backup (BACKUP_HOUR, 0-23, default 3): it holds the database while it runs. */
  backupHour: number;
  /** METRICS_TOKEN: /metrics answers a scraper presenting it as a Bearer token; unset, /metrics is 404. */
  metricsToken?: string;
  /** Minutes a receipt may wait for its MARK before /healthz says degraded (AADE_STUCK_MINUTES, default 30). */
  aadeStuckMinutes: number;
}

/** Admission (server/plugins/admission.ts): a learned bound on the work in flight and a short queue before it. */
export interface OverloadConfig {
  /** The learned bound's upper limit (OVERLOAD_MAX_IN_FLIGHT); 0 turns admission off (everything is let in at once). */
  maxInFlight: number;
  /** The learned bound's lower limit (OVERLOAD_MIN_IN_FLIGHT): this many are always let in at once. */
  minInFlight: number;
  /** CoDel's target (ms): a queue whose oldest request waits longer than this for a whole interval while it grows stands. */
  queueTargetMs: number;
  /** CoDel's interval (ms). */
  queueIntervalMs: number;
  /** The longest a request waits in the queue before it is refused (ms). */
  maxQueueWaitMs: number;
  /** How many requests may wait; beyond, refused at once. */
  maxQueue: number;
  /** This process's event-loop utilisation (percent) beyond which the bound does not grow (0: not watched). */
  maxEventLoopUtilization: number;
  /** How often the bound is learned again from the latency measured (ms). */
  sampleIntervalMs: number;
  /** Requests waiting for a PostgreSQL pool connection beyond which new ones wait in the queue instead (0: not watched). */
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

function hourOf(env: Env, name: string, fallback: number): number {
  const value = int(env, name, fallback);
  if (value > 23) throw new Error(`${name} must be an hour from 0 to 23, got "${env[name]}"`);
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
      listenSockets: int(env, 'LISTEN_SOCKETS', 8, 1),
      minBodyBytesPerSecond: int(env, 'MIN_BODY_BYTES_PER_SECOND', 1024),
      bodyGraceSeconds: int(env, 'BODY_GRACE_SECONDS', 10, 1),
    },
    drainSeconds: int(env, 'DRAIN_SECONDS', 20, 1),
    smtpUrl: text(env, 'SMTP_URL'),
    mailFrom: text(env, 'MAIL_FROM') ?? 'Frontis <no-reply@frontis.invalid>',
    smsUrl: text(env, 'SMS_URL')?.replace(/\/+$/, ''),
    smsAccount: text(env, 'SMS_ACCOUNT'),
    smsToken: text(env, 'SMS_TOKEN'),
    publicUrl: text(env, 'PUBLIC_URL'),
    dbCounts: flag(env, 'DB_COUNTS', false),
    today: text(env, 'FRONTIS_TODAY'),
    sentryDsn: text(env, 'SENTRY_DSN') ?? text(env, 'VITE_SENTRY_DSN'),
    s3: s3Config(env),
    filesShared: flag(env, 'FILES_SHARED', false),
    overload: {
      maxInFlight: int(env, 'OVERLOAD_MAX_IN_FLIGHT', 256),
      minInFlight: int(env, 'OVERLOAD_MIN_IN_FLIGHT', 4, 1),
      queueTargetMs: int(env, 'OVERLOAD_QUEUE_TARGET_MS', 50, 1),
      queueIntervalMs: int(env, 'OVERLOAD_QUEUE_INTERVAL_MS', 100, 1),
      maxQueueWaitMs: int(env, 'OVERLOAD_MAX_QUEUE_WAIT_MS', 5000, 1),
      maxQueue: int(env, 'OVERLOAD_MAX_QUEUE', 2000),
      maxEventLoopUtilization: int(env, 'OVERLOAD_MAX_EVENT_LOOP_UTILIZATION', 90),
      sampleIntervalMs: int(env, 'OVERLOAD_SAMPLE_INTERVAL_MS', 100, 10),
      maxPoolWaiting: int(env, 'OVERLOAD_MAX_POOL_WAITING', 32),
      retryAfterSeconds: int(env, 'OVERLOAD_RETRY_AFTER_SECONDS', 1, 1),
    },
    databaseDirectUrl: text(env, 'DATABASE_DIRECT_URL'),
    absenceGraceSeconds: int(env, 'ABSENCE_GRACE_SECONDS', 300),
    outboxSweepSeconds: int(env, 'OUTBOX_SWEEP_SECONDS', 30, 1),
    outboxMaxAttempts: int(env, 'OUTBOX_MAX_ATTEMPTS', 8, 1),
    aadeUrl: (text(env, 'MYDATA_URL') ?? 'https://mydataapidev.aade.gr').replace(/\/+$/, ''),
    aadeEverySeconds: int(env, 'MYDATA_EVERY_SECONDS', 30, 1),
    notificationsEverySeconds: int(env, 'NOTIFICATIONS_EVERY_SECONDS', 600, 1),
    backupHour: hourOf(env, 'BACKUP_HOUR', 3),
    metricsToken: text(env, 'METRICS_TOKEN'),
    aadeStuckMinutes: int(env, 'AADE_STUCK_MINUTES', 30, 1),
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
