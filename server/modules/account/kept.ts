/**
 * The account's and the analytics' answers, kept per centre while its money stays as it was.
 * A report reads every contract month of a range: on PGlite, which runs one statement at a
 * time, ten administrators opening it at once queued behind each other for seconds. The
 * centre's money revision (money_revisions, moved by triggers on every write to what the
 * reports read) comes with the session check; with the centre's date (what is due moves with
 * it) it stamps each kept answer. An answer made after the revision was read is as new as that
 * revision or newer, so it may be kept under it; requests that miss together share one making.
 */
/**
 * The stamp of a centre's reports as a statement of its own (the tenant id, an integer, written
 * in): its money revision and its date today, as the reports' own SQL reckons it.
 */
export const reportStampStatement = (tenantId: number) =>
  `select coalesce((select revision from money_revisions where tenant_id = ${tenantId}), 0)::text || '|' || centre_today(${tenantId})::text as stamp`;

/** The stamp reportStampStatement read, from its rows. */
export const stampOf = (rows: Record<string, unknown>[] | undefined): string | undefined => {
  const stamp = rows?.[0]?.stamp;
  return typeof stamp === 'string' ? stamp : undefined;
};

const KEPT_MAX = 1000;

export class KeptReports {
  private kept = new Map<string, { stamp: string; answer: Promise<unknown> }>();

  /** The answer of `key` as of `stamp`: the one kept, the one being made, or `make()` now. */
  get<T>(key: string, stamp: string | undefined, make: () => Promise<T>): Promise<T> {
    if (stamp === undefined) return make();
    const hit = this.kept.get(key);
    if (hit?.stamp === stamp) return hit.answer as Promise<T>;
    const answer = make();
    if (this.kept.size >= KEPT_MAX) this.kept.clear();
    this.kept.set(key, { stamp, answer });
    // A failure is not kept: the next request tries again.
    answer.catch(() => {
      if (this.kept.get(key)?.answer === answer) this.kept.delete(key);
    });
    return answer;
  }
}
