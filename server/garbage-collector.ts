/**
 * Imported first by the server's entry (main.ts) and the bench's server, before any of our
 * other modules runs: turns off V8's allocation-site pretenuring for the whole process.
 *
 * Pretenuring makes V8 allocate the objects of a code site straight in the old generation once
 * most of them outlived a young collection (as a burst of requests in flight makes them do).
 * A server's per-request objects die a few milliseconds later, but until the next full
 * collection they still point at the young objects of their request (the rows, the page's
 * text), so every young collection promotes those too. Measured under a list at about 650
 * requests a second on PostgreSQL: 10–15 MB promoted per young collection, a full collection
 * every 8–23 s whose marking took a core for 80–150 ms, and the requests due then answered
 * late together. Without pretenuring, 0.1–0.5 MB per young collection and no full collection
 * in the same loops (docs/performance.md, "Full collections in the fast lists' tail").
 *
 * A flag set from inside the process applies from then on, so this must run before the
 * modules that serve requests are loaded; an ES module's imports run in order, first first.
 * In the compiled server (dist-server/main.js) the packages it imports from node_modules load
 * before this: early enough, since V8 decides to pretenure from what outlives young
 * collections under load, not from what a module allocates once as it loads (the bench
 * measures the compiled server, and the figures above are from it).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
