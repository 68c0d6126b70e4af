// The compile report carries the statistics of the passes that count something (here
// pim-bufferize's copies inserted, in-place writes and allocations) and prints them.
import { compile, formatCompileReport, type CompileReport } from '@raptor-pim/compiler';
import type { ScheduleReport } from '@raptor-pim/scheduler';
import { defaultTarget } from '@raptor-pim/pim-target';
import { readModel } from './support/models';

jest.setTimeout(60_000);

it('the compile report counts the copies pim-bufferize inserted and prints them', () => {
  const target = defaultTarget();
  target.config.raptor_config.allow_vsoftmax = true; // mlp ends in Softmax
  const r = compile(readModel('mlp'), { target });
  expect(r.diagnostics).toEqual([]);
  const stage = r.report.stages.find((s) => s.stage === 'bufferization')!;
  const bufferize = stage.passes.find((p) => p.pass === 'pim-bufferize')!;
  expect(bufferize.statistics).toMatchObject({ 'copies-inserted': 0 });
  expect(bufferize.statistics!['allocations']).toBeGreaterThan(0);
  expect(formatCompileReport(r.report)).toMatch(/\npim-bufferize: copies-inserted 0, in-place \d+, allocations \d+/);
});

it("prints the scheduler's warnings per function (a strategy that fell back to another's plan says so)", () => {
  const fellBack = { function: 'main', warnings: ["'throughput' fell back to 'layer-sequential': no packing"] } as unknown as ScheduleReport;
  const quiet = { function: 'side', warnings: [] } as unknown as ScheduleReport;
  const report: CompileReport = { stages: [], totalMs: 1, peakHeapBytes: 1, schedule: { strategy: 'throughput', functions: [fellBack, quiet] } };
  expect(formatCompileReport(report).split('\n').filter((l) => l.startsWith('scheduler'))).toEqual([
    'scheduler throughput: 2 function(s) scheduled',
    "scheduler warning (@main): 'throughput' fell back to 'layer-sequential': no packing",
  ]);
});
