// V8 settings of the service, measured in docs/benchmarks.md. bin/pxs.js applies them; the benchmark gives
// them to baseline (b) too, so that its ratios compare code and not runtime settings.
export const V8_FLAGS = [
  // V8 sizes its heap for this machine's memory and lets the old generation grow up to fourfold between
  // collections, which took an API process past 250 MB under load; a 1.6 factor keeps it near 160 MB.
  '--heap-growing-percent=60',
  // Under load V8 decided to allocate the rows and strings of each request straight into the old generation
  // ("pretenuring"), where only a full mark-compact frees them: one every 1.5 s at half load, each delaying
  // the requests around it by 20–50 ms. Left in the young generation they die in cheap scavenges.
  '--no-allocation-site-pretenuring',
];
