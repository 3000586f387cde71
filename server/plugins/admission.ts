/**
 * The admission of requests (server/plugins/overload.ts uses it): a bound on the requests in
 * flight LEARNED from their measured latency, and a queue in front of it that tells a burst
 * (a queue that drains) from a flood (a queue that stands).
 *
 * The bound (a gradient limiter, after Netflix's concurrency-limits and Envoy's adaptive
 * concurrency filter): every sample (OVERLOAD_SAMPLE_INTERVAL_MS) the mean latency of the
 * requests answered in it (sampleRtt) is compared with the lowest such mean seen lately
 * (minRtt, the no-load figure, forgotten after a minute so that it follows the data):
 *   gradient = clamp(TOLERANCE * minRtt / sampleRtt, 0.5, 1)
 *   limit    = limit * (1 - SMOOTHING) + (limit * gradient + sqrt(limit)) * SMOOTHING
 * bounded by OVERLOAD_MIN_IN_FLIGHT and OVERLOAD_MAX_IN_FLIGHT. Latency that grows with the work
 * in flight (a database's own queue, a saturated CPU) lowers the bound, so that the extra work
 * waits here, where its wait is seen, rather than in the database's queue; the bound grows back
 * when latency is at its minimum and the requests in flight use it. When this process's own
 * event loop is busier than OVERLOAD_MAX_EVENT_LOOP_UTILIZATION the bound does not grow (more
 * at once would only wait for the CPU). Other processes on the machine never count: a slow
 * machine only lowers the bound, and a lightly loaded process stays under it.
 *
 * The queue (after Facebook's "Controlled Delay" with adaptive LIFO, "Fail at scale", ACM Queue
 * 2015): a request beyond the bound waits. The queue tells a burst (a queue that empties
 * again) from a flood (a queue that stands) by its course, watched each interval
 * (OVERLOAD_QUEUE_INTERVAL_MS):
 *  - Draining (the usual mode): first come first served, and a request may wait up to
 *    OVERLOAD_MAX_QUEUE_WAIT_MS. A burst (many users opening a screen at once) holds fewer and
 *    fewer requests once it has arrived, and is served whole. So are clients that each wait for
 *    their answer before asking again (keep-alive clients, however many and however slowly
 *    served): they hold one request each at most, so never ever more.
 *  - Growing: after LIFO_INTERVALS intervals in a row that each let in more than they served (a
 *    quarter more, and a few: counts are small on a slow machine) and held more requests than
 *    ever since the queue last emptied, the newest waiting request starts first (last in, first
 *    out), so that what is served is fresh whatever waits behind it.
 *  - Standing: the queue has not emptied for STAND_INTERVALS intervals, held more requests at
 *    the end of each half of them than at its start, by more than a tenth of what it served
 *    meanwhile, and holds more than ever since it last emptied: more is offered than this
 *    process serves, for longer than a burst lasts (clients starved of the CPU for a moment, then
 *    all asking at once, rise in one half). Then, newest first still, a request that has waited
 *    OVERLOAD_QUEUE_TARGET_MS is refused (the excess, oldest first, including what the queue
 *    held when found standing), so the wait of what is served stays under the target. It drains
 *    again after an interval in which nothing had to be refused.
 *  - Probed: clients that send again at once on a refusal (a load generator, not the web client,
 *    which waits for Retry-After) would keep a standing queue refusing. So every PROBE_EVERY
 *    intervals a standing queue refuses nothing for PROBE_INTERVALS intervals (newest first
 *    still, so what is served stays fresh): a flood holds ever more requests meanwhile, and the
 *    queue stands on; such clients, now waiting for their answers, hold no more, and it drains.
 * Requests refused never count as arrivals, and a draining queue refuses nothing before its long
 * wait. A request that would make the queue longer than OVERLOAD_MAX_QUEUE is refused at once
 * too. A refused request has done nothing: it may be sent again.
 */

/** How much slower than its minimum the latency may be before the bound shrinks. */
const TOLERANCE = 1.5;
/** How much of each sample's new bound is taken (the rest is the previous bound). */
const SMOOTHING = 0.2;
/** The no-load latency is the lowest of this long (and the one before): it follows data that grows. */
const MIN_RTT_WINDOW_MS = 60_000;
/** Arrivals over what was served beyond which a queue grows (a quarter more, and a few: counts are small on a slow machine). */
const GROWTH = 1.25;
const SLACK = 2;
/** A queue stands when what it holds rose through a second by more than this share of what it served (a tenth: a flood a little beyond what is served stands too). */
const STANDING_RISE = 0.1;
/** After this many intervals of growth the newest waiting request starts first (what is served stays fresh)... */
const LIFO_INTERVALS = 2;
/** ...and after this many the queue stands: longer than a burst's arrivals take, or than clients that each wait for their answer can grow. */
const STAND_INTERVALS = 10;
/** A standing queue is probed every this many intervals, for this many. */
const PROBE_EVERY = 10;
const PROBE_INTERVALS = 2;
/** The first probe comes this many intervals after the queue is found standing. */
const FIRST_PROBE_AFTER = 3;
/** The bound a process starts with (within its settings' bounds). */
const INITIAL_LIMIT = 16;

export interface AdmissionSettings {
  /** The bound's lower and upper limits. */
  minInFlight: number;
  maxInFlight: number;
  /** The wait allowed while the queue stands (ms), and the queue's interval (ms). */
  queueTargetMs: number;
  queueIntervalMs: number;
  /** The longest a request may wait while the queue drains (ms), and how many may wait. */
  maxQueueWaitMs: number;
  maxQueue: number;
  /** This process's event-loop utilisation (0-1) beyond which the bound does not grow. */
  maxEventLoopUtilization: number;
}

export type Refusal = 'queue-standing' | 'queue-full' | 'queue-wait';

interface Waiting {
  since: number;
  admit: () => void;
  refuse: (why: Refusal) => void;
}

export class Admission {
  /** The learned bound (fractional; requests are admitted while inFlight < floor(limit)). */
  limit: number;
  inFlight = 0;
  /** Whether the queue stands (served newest first, a short wait) rather than drains. */
  standing = false;
  /** Whether the newest waiting request starts first: the queue grows, or stands. */
  private lifo = false;
  /** Intervals since the queue stood or was last probed; during a probe (the first PROBE_INTERVALS of them) nothing waits out the target, and the requests held then. */
  private standingFor = 0;
  private probeHeld = 0;
  /** The waiting requests in order of arrival, from head on. */
  private queue: Waiting[] = [];
  private head = 0;
  /** When the queue was last seen empty. */
  private emptyAt: number;
  /** The current interval's end (0: none yet), and what it saw: requests let in, requests served, requests refused after a wait. */
  private intervalEnd = 0;
  private arrivals = 0;
  private departures = 0;
  private expired = 0;
  /** How many intervals in a row let in more than they served (a quarter more) and held more requests than ever since the queue last emptied. */
  private growing = 0;
  /** The most requests held (in flight and waiting) since the queue last emptied, before this interval; and in this interval. */
  private heldPeak = 0;
  private intervalPeak = 0;
  /** Since the queue last emptied (the last STAND_INTERVALS intervals at most): the requests held at each interval's end, and those served in each interval. */
  private heldAt: number[] = [0];
  private servedIn: number[] = [];
  private rttSum = 0;
  private rttCount = 0;
  private minRtt = Number.POSITIVE_INFINITY;
  private minRttPrevious = Number.POSITIVE_INFINITY;
  private minRttWindowFrom: number;
  /** The most requests in flight during the sample: the bound grows only if it was used. */
  private peakInFlight = 0;

  constructor(
    private readonly settings: AdmissionSettings,
    private readonly now: () => number = () => performance.now(),
    /** Whether the request may start now beyond the bound (the database pool's queue, say). */
    private readonly blocked: () => boolean = () => false,
  ) {
    this.limit = Math.min(Math.max(INITIAL_LIMIT, settings.minInFlight), settings.maxInFlight);
    this.minRttWindowFrom = now();
    this.emptyAt = this.minRttWindowFrom;
  }

  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Calls admit when the request may start (now or after a wait), or refuse (now or after a wait). */
  arrive(admit: () => void, refuse: (why: Refusal) => void): Waiting | undefined {
    const now = this.now();
    this.watchQueue(now);
    this.expire(now);
    if (this.waiting === 0) {
      this.emptyAt = now;
      if (this.hasRoom()) {
        this.arrivals++;
        this.start();
        admit();
        return undefined;
      }
    }
    if (this.waiting >= this.settings.maxQueue) return void refuse('queue-full');
    this.arrivals++;
    const entry: Waiting = { since: now, admit, refuse };
    this.queue.push(entry);
    this.intervalPeak = Math.max(this.intervalPeak, this.inFlight + this.waiting);
    return entry;
  }

  /** A waiting request whose client went away leaves the queue. */
  leave(entry: Waiting): void {
    const at = this.queue.indexOf(entry, this.head);
    if (at >= 0) this.queue.splice(at, 1);
    if (this.waiting === 0) this.emptyAt = this.now();
  }

  /** A started request is over; rttMs is its latency when it is a measure of the work (not a stream's, not an abort's). */
  finish(rttMs?: number): void {
    this.inFlight--;
    this.departures++;
    if (rttMs !== undefined) {
      this.rttSum += rttMs;
      this.rttCount++;
    }
    this.drain();
  }

  /** Refuses what waited too long; starts what the bound now lets in (newest first while the queue stands). Called when a request ends and every sample. */
  drain(): void {
    const now = this.now();
    this.watchQueue(now);
    this.expire(now);
    while (this.waiting > 0 && this.hasRoom()) {
      const next = this.lifo ? this.queue.pop()! : this.queue[this.head++]!;
      this.compact();
      this.start();
      next.admit();
    }
    if (this.waiting === 0) this.emptyAt = now;
  }

  /** One sample's end: the bound follows the latency measured in it. utilization: this process's event loop's, 0-1. */
  sample(utilization: number): void {
    const now = this.now();
    if (now - this.minRttWindowFrom > MIN_RTT_WINDOW_MS) {
      this.minRttPrevious = this.minRtt;
      this.minRtt = Number.POSITIVE_INFINITY;
      this.minRttWindowFrom = now;
    }
    const used = this.peakInFlight;
    this.peakInFlight = this.inFlight;
    if (this.rttCount > 0) {
      const sampleRtt = this.rttSum / this.rttCount;
      this.rttSum = 0;
      this.rttCount = 0;
      this.minRtt = Math.min(this.minRtt, sampleRtt);
      const minRtt = Math.min(this.minRtt, this.minRttPrevious);
      const gradient = Math.max(0.5, Math.min(1, (TOLERANCE * minRtt) / sampleRtt));
      // A bound the requests did not use (or a CPU already busy) is not evidence for a larger one.
      const grow = used >= this.limit / 2 && utilization <= this.settings.maxEventLoopUtilization;
      const next = this.limit * gradient + (grow ? Math.sqrt(this.limit) : 0);
      const smoothed = this.limit * (1 - SMOOTHING) + next * SMOOTHING;
      this.limit = Math.min(this.settings.maxInFlight, Math.max(this.settings.minInFlight, grow ? smoothed : Math.min(this.limit, smoothed)));
    }
    this.drain();
  }

  private hasRoom(): boolean {
    return this.inFlight < Math.floor(this.limit) && !(this.inFlight > 0 && this.blocked());
  }

  private start(): void {
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    this.intervalPeak = Math.max(this.intervalPeak, this.inFlight + this.waiting);
  }

  /** Refuses the requests that have waited their longest, oldest first: the short target while the queue stands, the long wait while it drains. */
  private expire(now: number): void {
    const longest = this.standing && !this.probing() ? this.settings.queueTargetMs : this.settings.maxQueueWaitMs;
    while (this.waiting > 0 && now - this.queue[this.head]!.since > longest) {
      const oldest = this.queue[this.head++]!;
      this.compact();
      this.expired++;
      oldest.refuse(this.standing ? 'queue-standing' : 'queue-wait');
    }
  }

  /** Forgets the requests before head once they are many (or all). */
  private compact(): void {
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Whether the requests held rose from interval from's end to interval to's, by more than a tenth of those served meanwhile (and a few). */
  private rose(from: number, to: number): boolean {
    const served = this.servedIn.slice(from, to).reduce((sum, n) => sum + n, 0);
    return this.heldAt[to]! - this.heldAt[from]! > STANDING_RISE * served + SLACK / 2;
  }

  /** Whether the standing queue lets requests wait (to tell a flood from clients that send again at once on a refusal). */
  private probing(): boolean {
    return this.standingFor < PROBE_INTERVALS;
  }

  /**
   * A standing queue stands while it has to refuse. Every PROBE_EVERY intervals it refuses
   * nothing for PROBE_INTERVALS intervals (newest first still, so what is served stays fresh):
   * a flood then holds ever more requests, where clients that sent again at once on a refusal,
   * waiting for their answer now, hold no more; then it drains.
   */
  private keepStanding(quiet: boolean, held: number): void {
    this.standingFor++;
    if (this.standingFor === PROBE_EVERY) {
      this.standingFor = 0;
      return;
    }
    if (quiet) {
      this.standing = false;
      return;
    }
    // The probe's first interval lets the answers on their way (and the requests sent again at
    // once on them) arrive; the second shows whether the queue still grows.
    if (this.standingFor === 1) this.probeHeld = held;
    else if (this.standingFor === PROBE_INTERVALS) this.standing = held - this.probeHeld > STANDING_RISE * this.departures + SLACK / 2;
    else this.standing = this.expired > 0;
  }

  /**
   * At each interval's end: whether the newest waiting request starts first (the queue grew in
   * the last LIFO_INTERVALS intervals), whether the queue starts to stand (it did not empty
   * throughout the last STAND_INTERVALS intervals, and holds more than it did then by more than
   * a tenth of what it served meanwhile, and more than ever since it last emptied), or drains
   * again (an interval in which nothing had to be refused). Clients that each wait for their
   * answer (keep-alive clients) hold at most one request each, however slowly they are served,
   * so they never hold ever more; a burst holds less and less once it has arrived.
   */
  private watchQueue(now: number): void {
    if (now < this.intervalEnd) return;
    if (this.intervalEnd > 0) {
      const held = this.inFlight + this.waiting;
      // An interval that saw no request neither grew nor refused.
      const quiet = this.arrivals === 0 && this.departures === 0;
      const emptied = quiet || this.emptyAt > this.intervalEnd - this.settings.queueIntervalMs;
      const higher = this.intervalPeak > this.heldPeak;
      const grew = !emptied && higher && this.arrivals > GROWTH * this.departures + SLACK;
      this.growing = grew ? this.growing + 1 : 0;
      if (emptied) {
        this.heldAt = [held];
        this.servedIn = [];
        this.heldPeak = held;
      } else {
        this.heldAt.push(held);
        this.servedIn.push(this.departures);
        if (this.heldAt.length > STAND_INTERVALS + 1) this.heldAt.shift();
        if (this.servedIn.length > STAND_INTERVALS) this.servedIn.shift();
        this.heldPeak = Math.max(this.heldPeak, this.intervalPeak);
      }
      const stood = this.standing;
      if (this.standing) this.keepStanding(quiet, held);
      else if (this.servedIn.length === STAND_INTERVALS && higher && this.rose(0, STAND_INTERVALS / 2) && this.rose(STAND_INTERVALS / 2, STAND_INTERVALS)) {
        // Probed soon (a flood refused at once meanwhile), then every PROBE_EVERY intervals.
        this.standing = true;
        this.standingFor = PROBE_EVERY - FIRST_PROBE_AFTER;
      }
      // A queue found standing, or draining again, is watched afresh: what it held before (a
      // backlog now refused, a flood's) is no measure of what it holds from now on.
      if (this.standing !== stood) {
        this.heldAt = [held];
        this.servedIn = [];
        this.heldPeak = held;
        this.growing = 0;
      }
      this.lifo = this.standing || this.growing >= LIFO_INTERVALS;
    }
    this.intervalEnd = now + this.settings.queueIntervalMs;
    this.arrivals = 0;
    this.departures = 0;
    this.expired = 0;
    this.intervalPeak = this.inFlight + this.waiting;
  }
}
