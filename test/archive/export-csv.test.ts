// CSV flattening of each value shape (the layout `archive get --format csv` and the explorer's export share).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../archive-client/export-csv';
import { normalisePoints } from '../../archive-client/values';

const csv = (et: string, st: string, pts: { ts: number; val: unknown }[]): string[] =>
  toCsv(normalisePoints(et, st, pts))
    .trim()
    .split('\n');

test('one layout per value shape', () => {
  assert.deepEqual(
    csv('throughput', 'base', [
      { ts: 1, val: '9000' },
      { ts: 2, val: 8e9 },
    ]),
    ['ts,value', '1,9000', '2,8000000000'],
  );
  assert.deepEqual(
    csv('packet-loss-rate', 'base', [
      { ts: 1, val: { numerator: 1, denominator: 4 } },
      { ts: 2, val: 0.5 },
    ]),
    ['ts,loss_fraction,lost,sent', '1,0.25,1,4', '2,0.5,,'],
  );
  assert.deepEqual(csv('histogram-rtt', 'base', [{ ts: 1, val: { '41.10': 2, '41.00': 3 } }]), [
    'ts,bucket,count',
    '1,41,3',
    '1,41.1,2',
  ]);
  assert.deepEqual(csv('streams-throughput', 'base', [{ ts: 1, val: [5, '6'] }]), [
    'ts,stream_num,value',
    '1,0,5',
    '1,1,6',
  ]);
  assert.deepEqual(
    csv('streams-throughput-subintervals', 'base', [
      { ts: 1, val: [[{ start: '0', duration: '1', val: 7 }], [{ start: '0', duration: '1', val: 8 }]] },
    ]),
    ['ts,stream_num,start,duration,value', '1,0,0,1,7', '1,1,0,1,8'],
  );
  assert.deepEqual(
    csv('packet-trace', 'base', [
      {
        ts: 1,
        val: [
          { ttl: 1, query: 1, success: 1, ip: '10.0.0.1', rtt: 0.5, as: { number: 64496, owner: 'X' } },
          { ttl: 2, query: 1, success: 0, 'error-message': 'no reply, "timeout"' },
        ],
      },
    ]),
    [
      'ts,ttl,query,success,ip,hostname,rtt,mtu,as_number,error_message',
      '1,1,1,1,10.0.0.1,,0.5,,64496,',
      '1,2,1,0,,,,,,"no reply, ""timeout"""',
    ],
  );
  assert.deepEqual(csv('failures', 'base', [{ ts: 1, val: { error: 'a,b' } }]), ['ts,error', '1,"a,b"']);
  assert.deepEqual(csv('pscheduler-raw', 'base', [{ ts: 1, val: { time: 'PT1S' } }]), [
    'ts,json',
    '1,"{""time"":""PT1S""}"',
  ]);
});

test('points that do not fit are listed after the series, not dropped', () => {
  const lines = csv('throughput', 'base', [
    { ts: 1, val: 5 },
    { ts: 2, val: 'n/a' },
  ]);
  assert.deepEqual(lines, [
    'ts,value',
    '1,5',
    '',
    'ts,invalid_reason,raw',
    '2,throughput value is not a number,"""n/a"""',
  ]);
});
