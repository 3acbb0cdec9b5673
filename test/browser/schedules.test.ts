import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { launchBrowser } from './support.js';

/**
 * On-call schedules in the web app, in Chromium against a real control plane whose clock is held at a
 * Monday 09:00 UTC (10:00 or 11:00 in Berlin) and a browser whose clock reads the same instant: the
 * editor (two layers, a restriction, the live preview changing before anything is saved, a bad time
 * named beside its field), the schedule page (timeline, who is on call, an override by form), the
 * dashboard's "Who is on call", My shifts (handoff notices, the calendar address shown once), a
 * policy step notifying a schedule, and a phone's width. Screenshots to /tmp/web-*.png.
 */
let h: Harness;
let browser: Browser;
let w: Awaited<ReturnType<Harness['workspace']>>;
let admin: { email: string; password: string };
let bob: { id: string; email: string; password: string };
let mia: { id: string; email: string; password: string; key: string };
let scheduleId = '';
let gapsId = '';

/** The Monday after today (real time, so the session cookie's expiry lies ahead), 09:00 UTC. */
const nextMonday = () => {
  const d = new Date();
  d.setUTCHours(9, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d;
};
const NOW = nextMonday();
/** `2026-12-14` for a datetime-local field on NOW's day. */
const DAY = NOW.toISOString().slice(0, 10);

const origin = () => `http://demo.localhost:${h.cp.port}`;

const signIn = async (who: { email: string; password: string }, path: string, width = 1280, dark = false) => {
  const context: BrowserContext = await browser.newContext({
    viewport: { width, height: 900 },
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
    colorScheme: dark ? 'dark' : 'light',
  });
  const page: Page = await context.newPage();
  await page.clock.setFixedTime(NOW);
  await page.goto(`${origin()}${path}`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${origin()}${path}`);
  return { context, page };
};

const api = async (method: string, path: string, json?: unknown) => {
  const r = await w.api(method, path, json === undefined ? {} : { json });
  expect(r.status, r.text.slice(0, 300)).toBeLessThan(300);
  return r.body as Record<string, unknown> & { data?: unknown[] };
};

/** The bars of a timeline row (a list named by the row), by their names. */
const bars = (page: Page, row: string | RegExp) =>
  page
    .getByRole('list', { name: row })
    .first()
    .getByRole('listitem')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')).filter(Boolean));

beforeAll(async () => {
  h = await startHarness();
  h.clock.set(NOW.getTime());
  w = await h.workspace('demo');
  admin = { email: w.admin.email, password: w.password };
  const b = await w.userWithKey('member', 'bob@demo.test');
  const m = await w.userWithKey('member', 'mia@demo.test');
  bob = { id: b.user.id, email: b.user.email, password: b.password };
  mia = { id: m.user.id, email: m.user.email, password: m.password, key: m.key };
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('on-call schedules in the web app', () => {
  it('the editor: two layers and a restriction, the preview changing before saving, a bad time named, then saved', async () => {
    const { context, page } = await signIn(admin, '/monitors');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
    await page.waitForURL(`${origin()}/schedules`);
    await page.getByRole('link', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name', { exact: true }).first().fill('Primary');
    // An unknown zone: the preview's 422 names it beside the field before anything is saved.
    await form.getByLabel('Time zone').fill('Mars/Olympus_Mons');
    await expect.poll(() => form.getByLabel('Time zone').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => form.locator('#schedule-tz-problem').textContent()).toBeTruthy();
    await form.getByLabel('Time zone').fill('Europe/Berlin');

    const layer1 = form.getByRole('group', { name: 'Layer 1' });
    await layer1.getByLabel('Name').fill('Follow the sun');
    await layer1.getByLabel('Add user').selectOption({ label: bob.email });
    // The preview shows layer 1 alone: the admin and bob by turns, nobody else.
    await expect
      .poll(() => bars(page, 'On call'), { timeout: 10_000 })
      .toContainEqual(expect.stringMatching(/^bob@/));
    expect((await bars(page, 'On call')).some((b) => b?.startsWith('mia@'))).toBe(false);
    await page.screenshot({ path: '/tmp/web-editor-one-layer-1280.png', fullPage: true });

    await form.getByRole('button', { name: 'Add layer' }).click();
    const layer2 = form.getByRole('group', { name: 'Layer 2' });
    await layer2.getByLabel('Name').fill('Office hours');
    await layer2.getByLabel('Add user').selectOption({ label: mia.email });
    await layer2.getByRole('button', { name: 'Add restriction to layer 2' }).click();
    const restriction = layer2.getByRole('group', { name: 'Restriction 1' });
    await restriction.getByLabel('Until').fill('25:00');
    // Not saved yet: the preview names the bad time beside its field.
    await expect.poll(() => restriction.getByLabel('Until').getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/There is a problem.*Until/);

    await restriction.getByLabel('Until').fill('17:00');
    // Still unsaved: mia, on weekdays 09:00–17:00, now wins in the final row.
    await expect
      .poll(() => bars(page, 'On call'), { timeout: 10_000 })
      .toContainEqual(expect.stringMatching(/^mia@/));
    await expect.poll(() => bars(page, /^2\. Office hours/)).toContainEqual(expect.stringMatching(/^mia@/));
    expect(await restriction.getByLabel('Until').getAttribute('aria-invalid')).toBeNull();
    await page.screenshot({ path: '/tmp/web-editor-preview-1280.png', fullPage: true });

    await form.getByRole('button', { name: 'Create schedule' }).click();
    await page.waitForURL(/\/schedules\/(?!new$)[\w-]+$/);
    scheduleId = page.url().split('/').pop()!;
    const saved = (await api('GET', `/schedules/${scheduleId}`)) as unknown as {
      timezone: string;
      layers: { name: string; users: string[]; restrictions: unknown[] }[];
    };
    expect(saved.timezone).toBe('Europe/Berlin');
    expect(saved.layers.map((l) => l.name)).toEqual(['Follow the sun', 'Office hours']);
    expect(saved.layers[0]!.users).toEqual([w.admin.id, bob.id]);
    expect(saved.layers[1]!.restrictions).toEqual([
      { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' },
    ]);

    // The schedule page: mia on call now (the restricted layer wins), until 17:00 Berlin.
    const now = page.getByRole('definition').filter({ hasText: /@/ }).first();
    await expect.poll(() => now.textContent()).toMatch(/^mia@demo\.test/);
    await expect.poll(() => page.getByText(/until .*17:00/).count()).toBeGreaterThan(0);
    await expect.poll(() => bars(page, 'On call')).toContainEqual(expect.stringMatching(/^mia@/));
    await context.close();
  });

  it('an override by form: an admin picks the user; it shows in the list and the timeline', async () => {
    const { context, page } = await signIn(admin, `/schedules/${scheduleId}`);
    const form = page.getByRole('form', { name: 'New override' });
    await form.getByLabel('User').selectOption({ label: bob.email });
    await form.getByLabel('From').fill(`${DAY}T12:00`);
    await form.getByLabel('To').fill(`${DAY}T14:00`);
    await form.getByRole('button', { name: 'Add override' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Overrides ahead' }).textContent())
      .toMatch(/bob@demo\.test.*12:00.*14:00/);
    await expect.poll(() => bars(page, 'Overrides')).toContainEqual(expect.stringMatching(/^bob@.*override/));
    // An end before its start: refused, named beside To.
    await form.getByLabel('To').fill(`${DAY}T11:00`);
    await form.getByRole('button', { name: 'Add override' }).click();
    await expect.poll(() => form.getByLabel('To').getAttribute('aria-invalid')).toBe('true');
    await context.close();
  });

  it("the dashboard's Who is on call, and a policy step that notifies the schedule", async () => {
    const { context, page } = await signIn(admin, '/monitors');
    const who = page.getByRole('region', { name: 'Who is on call' });
    await expect.poll(() => who.textContent()).toMatch(/Primary.*mia@demo\.test.*until/);

    await page.goto(`${origin()}/routing/escalation-policies`);
    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New policy' });
    await form.getByLabel('Name', { exact: true }).fill('On call first');
    const step = form.getByRole('group', { name: 'Step 1' });
    await expect
      .poll(() => step.getByLabel('Schedule').locator('option').allTextContents())
      .toContain('Primary');
    await step.getByLabel('Schedule').selectOption({ label: 'Primary' });
    await expect.poll(() => step.getByRole('button', { name: 'Remove Primary from step 1' }).count()).toBe(1);
    await page.screenshot({ path: '/tmp/web-policy-step-1280.png', fullPage: true });
    await form.getByRole('button', { name: 'Create policy' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /On call first/ }).textContent())
      .toMatch(/on call in Primary/);
    const policies = (await api('GET', '/escalation-policies')).data as {
      name: string;
      steps: { notify_schedule_ids?: string[] }[];
    }[];
    expect(policies.find((p) => p.name === 'On call first')?.steps[0]?.notify_schedule_ids).toEqual([
      scheduleId,
    ]);
    await context.close();
  });

  it('My shifts for a member: next shifts, handoff notices, the calendar address shown once; overrides only for themself', async () => {
    const { context, page } = await signIn(mia, '/monitors');
    await page.getByRole('link', { name: 'My shifts' }).click();
    await page.waitForURL(`${origin()}/settings/my-shifts`);
    await expect
      .poll(() => page.getByRole('list', { name: 'My next shifts' }).textContent())
      .toMatch(/Primary/);
    const notices = page.getByRole('form', { name: 'Handoff notices' });
    await notices.getByRole('checkbox').check();
    await notices.getByLabel('How long before (minutes)').fill('2');
    await notices.getByRole('button', { name: 'Save handoff notices' }).click();
    await expect
      .poll(() => notices.getByLabel('How long before (minutes)').getAttribute('aria-invalid'))
      .toBe('true');
    await notices.getByLabel('How long before (minutes)').fill('30');
    await notices.getByRole('button', { name: 'Save handoff notices' }).click();
    await expect.poll(() => notices.getByRole('status').textContent()).toBe('Saved.');
    expect(
      await (await w.as((await w.userWithKey('viewer')).key))('GET', '/me/handoff-notices'),
    ).toBeTruthy();

    await page.getByRole('button', { name: 'Subscribe to calendar' }).click();
    const address = page.getByRole('textbox', { name: 'Calendar address' });
    await expect.poll(() => address.inputValue()).toMatch(/^https?:\/\/.+\/calendars\/[\w.-]+\.ics$/);
    await expect.poll(() => page.getByText(/Shown once/).count()).toBe(1);
    await page.getByRole('button', { name: 'Revoke calendar address' }).click();
    await expect.poll(() => address.count()).toBe(0);

    await page.goto(`${origin()}/schedules/${scheduleId}`);
    const user = page.getByRole('form', { name: 'New override' }).getByLabel('User');
    await expect.poll(() => user.locator('option').allTextContents()).toEqual([mia.email]);

    // Members edit schedules: the editor offers everyone in the workspace, not only herself.
    await page.goto(`${origin()}/schedules/new`);
    const add = page.getByLabel('Add user').first();
    await expect.poll(() => add.locator('option').allTextContents()).toContain('bob@demo.test');
    await context.close();
  });

  it('a schedule with nobody on call at times: the gaps in the final row and a warning naming them', async () => {
    const created = await api('POST', '/schedules', {
      name: 'Office only',
      timezone: 'Europe/Berlin',
      layers: [
        {
          users: [mia.id],
          rotation: 'daily',
          handoff: '09:00',
          starts_at: NOW.toISOString(),
          restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
        },
      ],
    });
    gapsId = created.id as string;
    const { context, page } = await signIn(admin, `/schedules/${gapsId}`, 390);
    await expect.poll(() => bars(page, 'On call')).toContainEqual(expect.stringMatching(/^Nobody on call, /));
    await expect.poll(() => page.getByRole('note').textContent()).toMatch(/Nobody is on call for \d+ spans/);
    await page.screenshot({ path: '/tmp/web-schedule-gaps-390.png', fullPage: true });
    await context.close();
  });

  it('a viewer reads the timeline (each layer where it wins) and who is on call, and is offered no edits', async () => {
    const v = await w.userWithKey('viewer', 'vic@demo.test');
    const { context, page } = await signIn(
      { email: v.user.email, password: v.password },
      `/schedules/${scheduleId}`,
    );
    await expect.poll(() => bars(page, 'On call')).toContainEqual(expect.stringMatching(/^mia@/));
    await expect.poll(() => bars(page, /^2\. Office hours/)).toContainEqual(expect.stringMatching(/^mia@/));
    expect(await page.getByRole('link', { name: 'Edit schedule' }).count()).toBe(0);
    expect(await page.getByRole('form', { name: 'New override' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Subscribe to calendar' }).count()).toBe(0);
    await context.close();
  });

  it('at 390 px: the page does not widen; the timeline scrolls inside itself; the editor fits', async () => {
    const { context, page } = await signIn(bob, `/schedules/${scheduleId}`, 390);
    await expect.poll(() => bars(page, 'On call')).toContainEqual(expect.stringMatching(/^mia@/));
    const widths = (await page.evaluate(`(() => {
      const t = document.querySelector('.oc-scroll');
      return { page: document.documentElement.scrollWidth, inner: t.scrollWidth, box: t.clientWidth };
    })()`)) as { page: number; inner: number; box: number };
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.inner).toBeGreaterThan(widths.box);
    // Who is on call, on the schedules list and the dashboard, names the person at this width too
    // (innerText: what is shown; a name a stylesheet hides is still in textContent).
    await page.goto(`${origin()}/schedules`);
    await expect
      .poll(() => page.getByRole('row', { name: /Primary/ }).innerText())
      .toMatch(/mia@demo\.test\s+until/);
    await page.goto(`${origin()}/monitors`);
    const who = page.getByRole('region', { name: 'Who is on call' });
    await expect.poll(() => who.innerText()).toMatch(/Primary\s+mia@demo\.test.*until/);
    await page.goto(`${origin()}/schedules/${scheduleId}`);
    await page.getByRole('link', { name: 'Edit schedule' }).click();
    await expect.poll(() => bars(page, 'On call')).toContainEqual(expect.stringMatching(/^mia@/));
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('screenshots at 1280 and 390 px, light and dark', async () => {
    const shots: [string, string][] = [
      ['list', '/schedules'],
      ['editor', `/schedules/${scheduleId}/edit`],
      ['schedule', `/schedules/${scheduleId}`],
      ['dashboard', '/monitors'],
      ['gaps', `/schedules/${gapsId}`],
      ['my-shifts', '/settings/my-shifts'],
    ];
    for (const dark of [false, true])
      for (const width of [1280, 390]) {
        const { context, page } = await signIn(admin, '/monitors', width, dark);
        for (const [name, path] of shots) {
          await page.goto(`${origin()}${path}`);
          if (name !== 'list' && name !== 'my-shifts' && name !== 'dashboard')
            await expect.poll(() => bars(page, 'On call')).toContainEqual(expect.stringMatching(/@/));
          else await page.waitForLoadState('networkidle');
          await page.screenshot({
            path: `/tmp/web-${name}-${width}-${dark ? 'dark' : 'light'}.png`,
            fullPage: true,
          });
        }
        await context.close();
      }
  }, 120_000);
  // Last: a trade changes who is on call now, which the tests above read.
  it('shift trades: a member offers her shift, another takes it; an admin assigns one; an offer is withdrawn', async () => {
    const offer = async (who: { email: string; password: string }) => {
      const { context, page } = await signIn(who, `/schedules/${scheduleId}`);
      const mine = page.getByRole('list', { name: 'My next shifts here' });
      await mine
        .getByRole('button', { name: /^Offer my shift/ })
        .first()
        .click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Your shift is offered.');
      await context.close();
    };
    await offer(mia);
    const bobs = await signIn(bob, `/schedules/${scheduleId}`);
    const open = bobs.page.getByRole('list', { name: 'Open offers' });
    await expect.poll(() => open.textContent()).toMatch(/mia@demo\.test offers/);
    await open.getByRole('button', { name: /^Take the shift/ }).click();
    await expect.poll(() => bobs.page.getByRole('status').first().textContent()).toBe('The shift is yours.');
    await expect
      .poll(() => bobs.page.getByRole('list', { name: 'History' }).textContent())
      .toMatch(/took an offered shift/);
    await bobs.context.close();
    const overrides = (await api('GET', `/schedules/${scheduleId}/overrides`)).data as {
      user: { email: string };
      offer_id: string | null;
    }[];
    expect(overrides.some((o) => o.user.email === bob.email && o.offer_id)).toBe(true);

    await offer(mia);
    const admins = await signIn(admin, `/schedules/${scheduleId}`);
    const list = admins.page.getByRole('list', { name: 'Open offers' });
    await list
      .getByRole('combobox', { name: /^Assign .* to$/ })
      .first()
      .selectOption({ label: bob.email });
    await list
      .getByRole('button', { name: /^Assign the shift/ })
      .first()
      .click();
    await expect
      .poll(() => admins.page.getByRole('status').first().textContent())
      .toBe('The shift is assigned.');
    await admins.context.close();

    await offer(mia);
    const mias = await signIn(mia, `/schedules/${scheduleId}`);
    await mias.page
      .getByRole('list', { name: 'Open offers' })
      .getByRole('button', { name: /^Withdraw/ })
      .click();
    await expect
      .poll(() => mias.page.getByRole('status').first().textContent())
      .toBe('The offer is withdrawn.');
    await expect.poll(() => mias.page.getByText('No open offers.').count()).toBe(1);
    await mias.context.close();
    const offers = (await api('GET', `/schedules/${scheduleId}/offers`)).data as { status: string }[];
    expect(offers.map((o) => o.status).sort()).toEqual(['assigned', 'taken', 'withdrawn']);
  });
});
