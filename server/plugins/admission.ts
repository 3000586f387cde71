/**
 * The admission of requests (server/plugins/overload.ts uses it): a bound on the requests in
 * flight LEARNED from their measured latency, and a short queue in front of it that refuses
 * only when it stands.
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
 * The queue (after CoDel): a request beyond the bound waits, first come first served. A queue
 * stands when its oldest request waited longer than OVERLOAD_QUEUE_TARGET_MS throughout an
 * interval (OVERLOAD_QUEUE_INTERVAL_MS) AND more requests were let in than were served (a quarter
 * more) in that interval and the one before: offered more than it serves. (One interval of
 * growth is a burst or clients starting: not enough.) Then, and while more keeps being let in
 * than is served, a request arriving while the oldest waiting one has waited beyond the target
 * is refused at once, so that the wait of what is served stays near the target. For a hundred
 * intervals after (CoDel's memory; ten seconds by default) the same is refused again as soon as
 * the queue holds as many requests as when it last stood while more is let in than served, or
 * after one interval of growth.
 * Refused requests never count as growth: clients that send again at once, without the pause
 * asked for, do not keep a queue refusing. What does not stand is served: a burst (many users opening a screen at once) is a queue that drains, and
 * clients that each wait for their answer before asking again (keep-alive clients, however
 * many) bring no more than is served. A request that has waited OVERLOAD_MAX_QUEUE_WAIT_MS, or
 * that would make the queue longer than OVERLOAD_MAX_QUEUE, is refused too. A refused request
 * has done nothing: it may be sent again.
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
/** A standing queue keeps refusing for this many intervals after it last stood; its memory lasts ten times that. */
const CALM_INTERVALS = 10;
/** The bound a process starts with (within its settings' bounds). */
const INITIAL_LIMIT = 16;

export interface AdmissionSettings {
  /** The bound's lower and upper limits. */
  minInFlight: number;
  maxInFlight: number;
  /** CoDel's target and interval (ms). */
  queueTargetMs: number;
  queueIntervalMs: number;
  /** The longest a request may wait (ms), and how many may wait. */
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
  private readonly queue: Waiting[] = [];
  private head = 0;
  /** The current interval's end (0: none yet), and what it saw: requests arriving, requests served, the least wait. */
  private intervalEnd = 0;
  private arrivals = 0;
  private departures = 0;
  private refusals = 0;
  private leastWait = Number.POSITIVE_INFINITY;
  /** Whether the previous interval let in more than it served (a quarter more). */
  private grewBefore = false;
  /** When the queue last stood (0: never), and the requests it held then (in flight and waiting). */
  private stoodAt = 0;
  private stoodWith = 0;
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
  }

  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Calls admit when the request may start (now or after a wait), or refuse (now or after a wait). */
  arrive(admit: () => void, refuse: (why: Refusal) => void): Waiting | undefined {
    const now = this.now();
    this.arrivals++;
    this.watchQueue(now);
    if (this.waiting === 0 && this.hasRoom()) {
      this.start();
      admit();
      return undefined;
    }
    const why =
      this.refusing(now) && this.oldestWait(now) > this.settings.queueTargetMs
        ? 'queue-standing'
        : this.waiting >= this.settings.maxQueue
          ? 'queue-full'
          : undefined;
    if (why) {
      this.refusals++;
      return void refuse(why);
    }
    const entry: Waiting = { since: now, admit, refuse };
    this.queue.push(entry);
    return entry;
  }

  /** A waiting request whose client went away leaves the queue. */
  leave(entry: Waiting): void {
    const at = this.queue.indexOf(entry, this.head);
    if (at >= 0) this.queue.splice(at, 1);
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

  /** Starts what the bound now lets in; refuses what waited too long. Called when a request ends and every sample. */
  drain(): void {
    const now = this.now();
    while (this.waiting > 0) {
      const oldest = this.queue[this.head]!;
      if (now - oldest.since > this.settings.maxQueueWaitMs) {
        this.shift();
        oldest.refuse('queue-wait');
        continue;
      }
      if (!this.hasRoom()) break;
      this.shift();
      this.watchQueue(now, now - oldest.since);
      this.start();
      oldest.admit();
    }
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
    this.watchQueue(now);
    this.drain();
  }

  private hasRoom(): boolean {
    return this.inFlight < Math.floor(this.limit) && !(this.inFlight > 0 && this.blocked());
  }

  private start(): void {
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
  }

  private shift(): void {
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  private oldestWait(now: number): number {
    return this.waiting > 0 ? now - this.queue[this.head]!.since : 0;
  }

  /** CoDel's watch, at every arrival and start: how long the oldest waited; at each interval's end, whether the queue stands. */
  private watchQueue(now: number, wait = this.oldestWait(now)): void {
    if (now >= this.intervalEnd) {
      if (this.intervalEnd > 0) {
        // Requests let in (queued or started) against requests served: a queue that grows.
        const grew = this.arrivals - this.refusals > GROWTH * this.departures + SLACK;
        const above = this.leastWait > this.settings.queueTargetMs && this.leastWait !== Number.POSITIVE_INFINITY;
        // Standing, it stays so while more is let in than served; refused requests do not count
        // (clients sending again at once, without the pause asked for, would keep it standing).
        // A queue that stood lately stands again after one such interval (CoDel's memory).
        if (grew && (this.standing(now) || (above && (this.grewBefore || this.lately(now))))) this.stoodAt = now;
        if (this.standing(now)) this.stoodWith = this.inFlight + this.waiting;
        this.grewBefore = grew;
      }
      this.intervalEnd = now + this.settings.queueIntervalMs;
      this.arrivals = 0;
      this.refusals = 0;
      this.departures = 0;
      this.leastWait = Number.POSITIVE_INFINITY;
    }
    this.leastWait = Math.min(this.leastWait, wait);
  }

  /** Whether a request is refused when the oldest waiting one has waited beyond the target: the queue stands, or stood lately, holds as many requests as when it last stood and lets in more than it serves. */
  private refusing(now: number): boolean {
    return this.standing(now) || (this.lately(now) && this.inFlight + this.waiting >= this.stoodWith && this.arrivals - this.refusals > this.departures);
  }

  /** Whether the queue stood lately (CoDel's memory: a flood that paused is refused again at once). */
  private lately(now: number): boolean {
    return this.stoodAt > 0 && now - this.stoodAt <= 10 * CALM_INTERVALS * this.settings.queueIntervalMs;
  }

  /** Whether the queue stood within the last CALM_INTERVALS intervals. */
  standing(now = this.now()): boolean {
    return this.stoodAt > 0 && now - this.stoodAt <= CALM_INTERVALS * this.settings.queueIntervalMs;
  }
}
