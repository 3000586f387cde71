import fc from 'fast-check';

// Generated bad inputs run from a fixed seed, so CI is repeatable and a red run can be replayed.
// FC_SEED=random explores new inputs (fast-check prints the seed of any failure); FC_SEED=<n>
// replays one.
const chosen = process.env.FC_SEED ?? '20261122';
if (chosen !== 'random') fc.configureGlobal({ seed: Number(chosen) });
