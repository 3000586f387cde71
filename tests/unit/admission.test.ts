// The admission's rules (server/plugins/admission.ts) on a clock of the test's: a bound learned
// from latency, and a queue that refuses only when it stands. tests/api/plugins/overload*.test.ts has
// the same on real servers.
import { describe, expect, it } from 'vitest';
import { Admission, type AdmissionSettings, type Refusal } from '../../server/plugins/admission';

const SETTINGS: AdmissionSettings = {
  minInFlight: 4,
  maxInFlight: 256,
  queueTargetMs: 50,
  queueIntervalMs: 100,
  maxQueueWaitMs: 5000,
  maxQueue: 2000,
  maxEventLoopUtilization: 0.9,
};

/**
 * A server that finishes `perMs` requests each millisecond (those started first), fed by
 * `arrivals(ms)` new requests each millisecond for `ms` milliseconds, then drained.
 */
function simulate(admission: Admission, clock: { now: number }, ms: number, perMs: number, arrivals: (at: number) => number, from = 0) {
  const started: number[] = [];
  const waits: number[] = [];
  const refused: { why: Refusal; after: number; at: number }[] = [];
  const startedAt: number[] = [];
  let credit = 0;
  const arrive = () => {
    const at = clock.now;
    admission.arrive(
      () => {
        waits.push(clock.now - at);
        startedAt.push(clock.now - from);
        started.push(clock.now);
      },
      (why) => refused.push({ why, after: clock.now - at, at: clock.now - from }),
    );
  };
  for (let t = 0; t < ms || started.length > 0 || admission.waiting > 0; t++) {
    clock.now = from + t;
    if (t < ms) for (let i = 0; i < arrivals(t); i++) arrive();
    credit += perMs;
    while (credit >= 1 && started.length > 0) {
      credit--;
      const begun = started.shift()!;
      admission.finish(clock.now - begun + 1);
      if (t < ms && onFinish) onFinish(arrive);
    }
    if (started.length === 0) credit = 0;
    if (t % 100 === 0) admission.sample(0.5);
    if (t > ms + 60_000) throw new Error('never drained');
  }
  return { waits, refused, startedAt };
}
let onFinish: ((arrive: () => void) => void) | undefined;

const start = () => {
  const clock = { now: 0 };
  return { clock, admission: new Admission(SETTINGS, () => clock.now) };
};

describe('the learned bound', () => {
  it('shrinks when latency grows past its minimum with the bound in use, and grows back when it falls', () => {
    const { clock, admission } = start();
    const sample = (rtt: number, inFlight: number) => {
      for (let i = 0; i < inFlight; i++)
        admission.arrive(
          () => {},
          () => {},
        );
      for (let i = 0; i < inFlight; i++) admission.finish(rtt);
      // a sample that saw the bound used
      for (let i = 0; i < inFlight; i++)
        admission.arrive(
          () => {},
          () => {},
        );
      clock.now += 100;
      admission.sample(0.5);
      for (let i = 0; i < inFlight; i++) admission.finish();
    };
    sample(10, 16);
    const first = admission.limit;
    expect(first).toBeGreaterThan(16);
    for (let i = 0; i < 20; i++) sample(60, Math.floor(admission.limit));
    const shrunk = admission.limit;
    expect(shrunk).toBeLessThan(first / 2);
    expect(shrunk).toBeGreaterThanOrEqual(SETTINGS.minInFlight);
    for (let i = 0; i < 20; i++) sample(10, Math.floor(admission.limit));
    expect(admission.limit).toBeGreaterThan(shrunk * 2);
  });

  it('does not grow when the bound is not used, nor when this process’s event loop is busy', () => {
    const { clock, admission } = start();
    for (let i = 0; i < 20; i++) {
      admission.arrive(
        () => {},
        () => {},
      );
      admission.finish(10);
      clock.now += 100;
      admission.sample(0.2);
    }
    expect(admission.limit).toBe(16);
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 16; j++)
        admission.arrive(
          () => {},
          () => {},
        );
      for (let j = 0; j < 16; j++) admission.finish(10);
      for (let j = 0; j < 16; j++)
        admission.arrive(
          () => {},
          () => {},
        );
      clock.now += 100;
      admission.sample(0.95);
      for (let j = 0; j < 16; j++) admission.finish();
    }
    expect(admission.limit).toBe(16);
  });
});

describe('the queue', () => {
  it('serves a burst whole: 120 requests at once, waiting up to 600 ms, none refused', () => {
    onFinish = undefined;
    const { clock, admission } = start();
    const { waits, refused } = simulate(admission, clock, 1, 0.2, () => 120);
    expect(refused).toEqual([]);
    expect(waits).toHaveLength(120);
    expect(Math.max(...waits)).toBeGreaterThan(SETTINGS.queueTargetMs * 4);
  });

  it('serves clients that each wait for their answer, however long the queue: 50 keep-alive clients for 3 s, none refused', () => {
    onFinish = (arrive) => arrive();
    const { clock, admission } = start();
    const { waits, refused } = simulate(admission, clock, 3000, 0.2, (t) => (t === 0 ? 50 : 0));
    onFinish = undefined;
    expect(refused).toEqual([]);
    expect(waits.length).toBeGreaterThan(500);
  });

  it('serves 50 keep-alive clients on a slow, uneven machine (30 answers a second, unevenly; each client asks again up to 400 ms after its answer, or at once): none refused', () => {
    const { clock, admission } = start();
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const started: number[] = [];
    const due: number[] = Array.from({ length: 50 }, () => 0);
    let refused = 0;
    let served = 0;
    for (let t = 0; t < 5000; t++) {
      clock.now = t;
      for (let i = due.length - 1; i >= 0; i--) {
        if (due[i]! > t) continue;
        due.splice(i, 1);
        admission.arrive(
          () => started.push(t),
          () => refused++,
        );
      }
      // Up to three answers at once every 100 ms, none in between.
      if (t % 100 === 0)
        for (let n = 0; n < 3 && started.length > 0; n++) {
          admission.finish(t - started.shift()! + 1);
          served++;
          due.push(t + (random() < 0.5 ? 0 : Math.floor(random() * 400)));
        }
      if (t % 100 === 50) admission.sample(0.5);
    }
    expect(served).toBeGreaterThan(120);
    expect(refused).toBe(0);
  });

  it('offered twice what is served for 3 s: the queue stands within 1.3 s; then the excess is refused within the target and what is served waited less than it', () => {
    onFinish = undefined;
    const { clock, admission } = start();
    // 0.4 requests a millisecond offered, 0.2 served
    const { waits, refused, startedAt } = simulate(admission, clock, 3000, 0.2, (t) => (t % 5 < 2 ? 1 : 0));
    expect(refused.length).toBeGreaterThan(500);
    expect(new Set(refused.map((r) => r.why))).toEqual(new Set(['queue-standing']));
    // The first refusals are what the draining queue held when it was found standing; from then on, each is refused once it has waited the target.
    const firstAt = refused[0]!.at;
    expect(firstAt).toBeLessThan(1300);
    // (Every second the queue refuses nothing for two intervals, to see whether it still grows: what waited then is refused after.)
    const after = refused.filter((r) => r.at > firstAt);
    expect(after.filter((r) => r.after <= SETTINGS.queueTargetMs + 5).length).toBeGreaterThan(after.length * 0.7);
    expect(Math.max(...after.map((r) => r.after))).toBeLessThan(3 * SETTINGS.queueIntervalMs);
    // (While the flood lasts: what a probe held when it ended is served after.)
    const late = waits.filter((_, i) => startedAt[i]! > firstAt && startedAt[i]! < 3000);
    expect(late.length).toBeGreaterThan(300);
    expect(Math.max(...late)).toBeLessThanOrEqual(SETTINGS.queueTargetMs + 5);
  });

  it('offered a fifth more than is served for 5 s: the queue stands too, and what is served waits no longer than the target', () => {
    onFinish = undefined;
    const { clock, admission } = start();
    // 0.24 requests a millisecond offered, 0.2 served
    const { waits, refused, startedAt } = simulate(admission, clock, 5000, 0.2, (t) => (t % 25 < 6 ? 1 : 0));
    expect(refused.length).toBeGreaterThan(50);
    const late = waits.filter((_, i) => startedAt[i]! > 2500 && startedAt[i]! < 5000);
    expect(late.length).toBeGreaterThan(400);
    expect(Math.max(...late)).toBeLessThanOrEqual(SETTINGS.queueTargetMs + 5);
  });

  it('while the queue stands the newest request starts first; once the flood ends the queue drains again and a burst is served whole', () => {
    onFinish = undefined;
    const { clock, admission } = start();
    simulate(admission, clock, 1000, 0.2, (t) => (t % 5 < 2 ? 1 : 0));
    expect(admission.waiting).toBe(0);
    // The flood is over (drained by the simulation): a burst a little later is all served.
    clock.now += 500;
    admission.sample(0.5);
    expect(admission.standing).toBe(false);
    const { refused, waits } = simulate(admission, clock, 1, 0.2, () => 120, clock.now);
    expect(refused).toEqual([]);
    expect(waits).toHaveLength(120);
  });

  it('clients that send again at once on a refusal do not keep a queue standing: after a flood, 50 such clients are served within two seconds', () => {
    const { clock, admission } = start();
    const started: number[] = [];
    let pending = 0;
    let refusedLate = 0;
    const client = (t: number, late: boolean) =>
      admission.arrive(
        () => started.push(t),
        () => {
          if (late) refusedLate++;
          pending++;
        },
      );
    let credit = 0;
    for (let t = 0; t < 6000; t++) {
      clock.now = t;
      // A flood for 2 s (twice what is served), then the 50 clients alone.
      if (t < 2000 && t % 5 < 2)
        admission.arrive(
          () => started.push(t),
          () => {},
        );
      if (t === 2000) for (let i = 0; i < 50; i++) client(t, false);
      if (t >= 2000) {
        for (; pending > 0; pending--) client(t, t >= 4000);
      }
      credit += 0.2;
      while (credit >= 1 && started.length > 0) {
        credit--;
        admission.finish(t - started.shift()! + 1);
        if (t >= 2000) pending++;
      }
      if (started.length === 0) credit = 0;
      if (t % 100 === 0) admission.sample(0.5);
    }
    expect(admission.standing).toBe(false);
    expect(refusedLate).toBe(0);
  });

  it('a standing queue serves last in, first out', () => {
    const { clock, admission } = start();
    const order: number[] = [];
    const hold = () =>
      admission.arrive(
        () => {},
        () => {},
      );
    // The bound full, and a queue that grows without emptying for ten intervals.
    for (let i = 0; i < 16; i++) hold();
    for (let t = 0; t <= 1100; t += 10) {
      clock.now = t;
      for (let i = 0; i < 3; i++) hold();
      admission.finish(10);
    }
    clock.now = 1105;
    admission.sample(0.5);
    expect(admission.standing).toBe(true);
    for (let i = 0; i < 3; i++)
      admission.arrive(
        () => order.push(i),
        () => order.push(-1),
      );
    for (let i = 0; i < 3; i++) admission.finish(10);
    expect(order).toEqual([2, 1, 0]);
  });
});
