import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Removing a user whom an escalation step notifies alone: the API refuses (409) and the Users page
 * shows its message, naming the policy, in the confirmation dialog; once the step notifies someone
 * else too, the removal goes through and the user leaves the step.
 */
let lookout: Lookout;
let browser: Browser;
beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('Users page: removal and escalation steps', () => {
  it('shows the refusal naming the policy, then removes the user once the step is shared', async () => {
    const kim = await lookout.cli([
      ...['user', 'create', '--workspace', 'demo', '--email', 'kim@demo.localhost', '--role', 'member'],
    ]);
    const key = { 'x-api-key': lookout.apiKey };
    const users = JSON.parse((await lookout.api('demo', '/users', key)).body).data as {
      id: string;
      email: string;
    }[];
    const admin = users.find((u) => u.email === lookout.adminEmail)!;
    const created = await lookout.api('demo', '/escalation-policies', key, {
      method: 'POST',
      json: { name: 'Night shift', steps: [{ wait_minutes: 0, notify_user_ids: [kim.user.id] }] },
    });
    expect(created.status).toBe(201);
    const policy = JSON.parse(created.body) as { id: string };

    const { context, page } = await signedInAt(
      browser,
      lookout,
      {
        email: lookout.adminEmail,
        password: lookout.password,
      },
      '/settings/users',
    );
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Remove kim@demo.localhost' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove kim@demo.localhost?' });
    expect(await dialog.textContent()).toMatch(
      /leave the escalation steps they share with others\. If a step notifies only them, the removal is refused/,
    );
    await dialog.getByRole('button', { name: 'Remove' }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(
      'This user is the only one notified by step 1 of “Night shift”. Add someone else to that step (or change the escalation policy) before removing them.',
    );
    await page.screenshot({ path: join(tmpdir(), 'lookout-user-removal-refused.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('row', { name: /kim@demo\.localhost/ }).count()).toBe(1);

    const shared = await lookout.api('demo', `/escalation-policies/${policy.id}`, key, {
      method: 'PATCH',
      json: { steps: [{ wait_minutes: 0, notify_user_ids: [kim.user.id, admin.id] }] },
    });
    expect(shared.status).toBe(200);
    await page.getByRole('button', { name: 'Remove kim@demo.localhost' }).click();
    await page
      .getByRole('dialog', { name: 'Remove kim@demo.localhost?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByRole('status').filter({ hasText: 'kim@demo.localhost was removed.' }).waitFor();
    await expect.poll(() => page.getByRole('row', { name: /kim@demo\.localhost/ }).count()).toBe(0);
    const after = JSON.parse((await lookout.api('demo', `/escalation-policies/${policy.id}`, key)).body);
    expect(after.steps[0].notify_user_ids).toEqual([admin.id]);
    await context.close();
  });

  it('names the schedule layers a removal leaves with nobody', async () => {
    const ned = await lookout.cli([
      ...['user', 'create', '--workspace', 'demo', '--email', 'ned@demo.localhost', '--role', 'member'],
    ]);
    const key = { 'x-api-key': lookout.apiKey };
    const created = await lookout.api('demo', '/schedules', key, {
      method: 'POST',
      json: {
        name: 'Nights',
        timezone: 'Europe/Berlin',
        layers: [
          { users: [ned.user.id], rotation: 'daily', handoff: '18:00', starts_at: '2026-01-05T17:00:00Z' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const { context, page } = await signedInAt(
      browser,
      lookout,
      { email: lookout.adminEmail, password: lookout.password },
      '/settings/users',
    );
    await page.getByRole('button', { name: 'Remove ned@demo.localhost' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove ned@demo.localhost?' });
    expect(await dialog.textContent()).toMatch(/They also leave every on-call rotation/);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    const warning = page.getByRole('alert').filter({ hasText: 'ned@demo.localhost was removed.' });
    await warning.waitFor();
    expect(await warning.textContent()).toMatch(/Nobody is left in Nights \(layer 1\)/);
    await context.close();
  });
});
