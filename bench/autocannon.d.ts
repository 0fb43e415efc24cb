// autocannon ships no types; bench/load-worker.ts describes the little of it that it uses.
declare module 'autocannon';
