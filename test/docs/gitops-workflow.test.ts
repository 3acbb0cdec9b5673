import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/** The sample GitHub Actions workflow of docs/gitops.md: plan on pull requests, apply on merge. */
const workflow = parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'gitops', 'lookout-config.yml'), 'utf8'),
);

describe('docs/gitops/lookout-config.yml', () => {
  it('plans on pull requests (exit 2 passes, 1 fails) and applies on pushes to main, one at a time', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    expect(workflow.on.push.branches).toEqual(['main']);
    const plan = workflow.jobs.plan;
    expect(plan.if).toBe("github.event_name == 'pull_request'");
    const planRun = plan.steps.at(-1).run as string;
    expect(planRun).toContain('lookout.js plan -f lookout.yaml');
    expect(planRun).toContain('[ "$code" -ne 1 ]');
    const apply = workflow.jobs.apply;
    expect(apply.if).toBe("github.event_name == 'push'");
    expect(apply.steps.at(-1).run).toContain('lookout.js apply -f lookout.yaml');
    expect(workflow.concurrency.group).toContain('apply');
    // The keys come from secrets, never from the file.
    expect(plan.steps.at(-1).env.LOOKOUT_API_KEY).toMatch(/^\$\{\{ secrets\.LOOKOUT_PLAN_KEY \}\}$/);
    expect(apply.steps.at(-1).env.LOOKOUT_API_KEY).toMatch(/^\$\{\{ secrets\.LOOKOUT_APPLY_KEY \}\}$/);
  });
});
