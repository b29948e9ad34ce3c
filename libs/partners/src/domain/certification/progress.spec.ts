import type { CheckState } from './certification-transitions';
import { progress } from './progress';

const STEPS = [
  { step: 'A', label: 'Step A' },
  { step: 'B', label: 'Step B' },
  { step: 'C', label: 'Step C' },
];
const flow = (checks: [string, CheckState][], steps = STEPS) => ({
  baseline: { steps },
  checks: checks.map(([step, state]) => ({ step, state })),
});
const unlockedAndComplete = (checks: [string, CheckState][]) =>
  progress(flow(checks)).steps.map(({ step, unlocked, complete }) => ({ step, unlocked, complete }));

describe('flow progress', () => {
  it('is all zero for a flow without checks', () =>
    expect(progress(flow([], []))).toEqual({
      total: 0,
      passed: 0,
      failed: 0,
      waived: 0,
      skipped: 0,
      pending: 0,
      awaiting_admin_review: 0,
      percent: 0,
      steps: [],
    }));

  it('unlocks only the first step of an untouched flow', () =>
    expect(
      progress(
        flow([
          ['A', 'PENDING'],
          ['B', 'PENDING'],
          ['C', 'PENDING'],
        ]),
      ),
    ).toEqual({
      total: 3,
      passed: 0,
      failed: 0,
      waived: 0,
      skipped: 0,
      pending: 3,
      awaiting_admin_review: 0,
      percent: 0,
      steps: [
        {
          step: 'A',
          label: 'Step A',
          total: 1,
          resolved: 0,
          failed: 0,
          awaiting_admin_review: 0,
          unlocked: true,
          complete: false,
        },
        {
          step: 'B',
          label: 'Step B',
          total: 1,
          resolved: 0,
          failed: 0,
          awaiting_admin_review: 0,
          unlocked: false,
          complete: false,
        },
        {
          step: 'C',
          label: 'Step C',
          total: 1,
          resolved: 0,
          failed: 0,
          awaiting_admin_review: 0,
          unlocked: false,
          complete: false,
        },
      ],
    }));

  it('counts PASSED, WAIVED and SKIPPED as resolved; FAILED and AWAITING_ADMIN_REVIEW hold a step back', () => {
    const result = progress(
      flow([
        ['A', 'PASSED'],
        ['A', 'WAIVED'],
        ['B', 'SKIPPED'],
        ['B', 'FAILED'],
        ['B', 'AWAITING_ADMIN_REVIEW'],
        ['C', 'PENDING'],
      ]),
    );
    expect(result).toMatchObject({
      total: 6,
      passed: 1,
      failed: 1,
      waived: 1,
      skipped: 1,
      pending: 1,
      awaiting_admin_review: 1,
      percent: 50,
    });
    expect(result.steps[1]).toEqual({
      step: 'B',
      label: 'Step B',
      total: 3,
      resolved: 1,
      failed: 1,
      awaiting_admin_review: 1,
      unlocked: true,
      complete: false,
    });
    expect(result.steps[2]).toMatchObject({ unlocked: false, complete: false });
  });

  it.each([
    [['PASSED', 'PENDING', 'PENDING'], 33],
    [['PASSED', 'SKIPPED', 'PENDING'], 66],
    [['PASSED', 'WAIVED', 'SKIPPED'], 100],
    [['FAILED', 'AWAITING_ADMIN_REVIEW', 'PENDING'], 0],
  ] as [CheckState[], number][])('rounds the percent down: %j → %i', (states, percent) =>
    expect(progress(flow(states.map((state) => ['A', state]))).percent).toBe(percent),
  );

  it('keeps a complete step locked while an earlier step is incomplete', () =>
    expect(
      unlockedAndComplete([
        ['A', 'PASSED'],
        ['B', 'PENDING'],
        ['C', 'PASSED'],
      ]),
    ).toEqual([
      { step: 'A', unlocked: true, complete: true },
      { step: 'B', unlocked: true, complete: false },
      { step: 'C', unlocked: false, complete: true },
    ]));

  it('needs every earlier step complete, not only the one before', () =>
    expect(
      unlockedAndComplete([
        ['A', 'PENDING'],
        ['B', 'PASSED'],
        ['C', 'PENDING'],
      ]),
    ).toEqual([
      { step: 'A', unlocked: true, complete: false },
      { step: 'B', unlocked: false, complete: true },
      { step: 'C', unlocked: false, complete: false },
    ]));

  it('unlocks every step once all earlier ones are complete', () =>
    expect(
      unlockedAndComplete([
        ['A', 'WAIVED'],
        ['B', 'SKIPPED'],
        ['C', 'AWAITING_ADMIN_REVIEW'],
      ]),
    ).toEqual([
      { step: 'A', unlocked: true, complete: true },
      { step: 'B', unlocked: true, complete: true },
      { step: 'C', unlocked: true, complete: false },
    ]));

  it('follows the order of the baseline, not of the checks', () =>
    expect(
      progress(
        flow(
          [
            ['A', 'PENDING'],
            ['C', 'PASSED'],
          ],
          [STEPS[2], STEPS[0]],
        ),
      ).steps.map(({ step, unlocked }) => ({ step, unlocked })),
    ).toEqual([
      { step: 'C', unlocked: true },
      { step: 'A', unlocked: true },
    ]));
});
