import { describe, expect, it } from 'vitest';
import { OutageLog } from '../../src/db/outage-log.js';

const lost = () => new Error('Connection terminated unexpectedly');
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('the outage log of a retrying loop', () => {
  it('logs an outage once when it starts and once when it ends, however often the worker tries meanwhile', () => {
    const lines: [string, string][] = [];
    const log = new OutageLog((level, msg) => {
      lines.push([level, msg]);
    }, 'webhook delivery goes on');
    for (let i = 0; i < 50; i++) log.failed('webhook claim failed', i % 2 ? lost() : refused());
    log.succeeded();
    log.succeeded();
    log.failed('webhook sweep failed', lost());
    expect(lines).toEqual([
      ['warn', 'webhook claim failed: the database is unavailable; trying again until it is back'],
      ['info', 'the database is available again; webhook delivery goes on'],
      ['warn', 'webhook sweep failed: the database is unavailable; trying again until it is back'],
    ]);
  });

  it('logs every other failure as an error, with the error, during an outage too', () => {
    const lines: { level: string; extra?: object }[] = [];
    const log = new OutageLog((level, _msg, extra) => {
      lines.push({ level, extra });
    }, 'webhook delivery goes on');
    const bug = Object.assign(new Error('column "x" does not exist'), { code: '42703' });
    log.failed('webhook claim failed', refused());
    log.failed('webhook claim failed', bug);
    log.failed('webhook claim failed', bug);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'error', 'error']);
    expect(lines[1].extra).toEqual({ err: bug });
  });
});
