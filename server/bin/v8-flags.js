// V8 settings of the service (docs/decisions.md, "V8 settings"). The benchmark gives them to baseline (b) too, so that
// its ratios compare code and not runtime settings.

// Settings V8 reads only when it creates the heap, before any script runs: they work only on node's command line,
// which the first line of bin/pxs.js gives (and so `npm start`). A test keeps that line and this list equal.
export const STARTUP_FLAGS = [
  // After a few seconds of little allocation, V8 shrinks the young generation to its minimum, 1 MB by default.
  // When requests came back at 2,700/s, it filled every 3 ms: each request in flight outlived two scavenges and
  // was promoted, mark-compacts followed every half second, and the first 1-2 s after an idle spell queued
  // requests for up to 1.4 s. 16 MB is the size the young generation grows to under load anyway.
  '--min-semi-space-size=16',
  // And no larger: Node 22 and later let it grow to 32 MB, Node 20 stops at 16. On Node 24 an API process went past
  // 200 MB under load (199–248 MB on the offers page, 167–177 MB with this), for no gain in throughput.
  '--max-semi-space-size=16',
  // When allocation slows down, V8's memory reducer runs a mark-compact that gives memory back (`Mark-Compact
  // (reduce)` in --trace-gc). One of these in an idle spell came before each slow start of a half-load window
  // (1,284 requests up to 139 ms, at a third more CPU per request for seconds, as if freshly started), and one
  // under load made a cluster of 199 requests up to 53 ms. A server's heap stays at its working size instead.
  '--no-memory-reducer',
];

// Settings V8 reads as it goes: bin/pxs.js applies them when the process starts.
export const V8_FLAGS = [
  // V8 sizes its heap for this machine's memory and lets the old generation grow up to fourfold between
  // collections, which took an API process past 250 MB under load; a 1.6 factor keeps it near 160 MB.
  '--heap-growing-percent=60',
  // Under load V8 decided to allocate the rows and strings of each request straight into the old generation
  // ("pretenuring"), where only a full mark-compact frees them: one every 1.5 s at half load, each delaying
  // the requests around it by 20–50 ms. Left in the young generation they die in cheap scavenges.
  '--no-allocation-site-pretenuring',
  // Node 22 and later add V8's Maglev compiler between the interpreter and TurboFan (Node 20 runs without it). On
  // Node 24 it held 8–27 MB more under load, taking an API process to 213 MB against the 200 MB target, for no
  // throughput the benchmark could see: a server's hot code reaches TurboFan either way.
  '--no-maglev',
];
