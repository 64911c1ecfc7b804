import { measure } from '../lib/load.js';
import { figures, type Scenario } from '../lib/scenario.js';
import { startBaseline } from '../lib/service.js';

/** Baseline (a), the ceiling of the runtime on this machine: node:http answering a fixed page of 20 offers. */
export const runtime: Scenario = {
  name: 'runtime',
  async run(ctx) {
    const name = 'GET fixed JSON';
    if (!ctx.selected(name)) return [];
    const a = await startBaseline('node-http');
    try {
      const l = await measure({ url: a.url, request: { method: 'GET', path: '/' } }, ctx.timing);
      return [{ name, subject: 'baseline (a) node:http', ...figures(l), peakRssMb: a.peakRssMb(), checks: [] }];
    } finally {
      await a.stop();
    }
  },
};
