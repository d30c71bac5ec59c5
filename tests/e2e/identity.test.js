// Identity (issue 52, item 5): a guest chooses the name it is shown by in the page's header
// ("Your name"), sees it there and in the lobby, keeps it after a reload, and sees the server's
// own words when a name is refused (a control character, too long, taken). A program that
// logs in without a token but names its engine is badged BOT in the lobby, not HUMAN.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, ensureBinary } from './helpers.js';

let server, b, engineBot, other;
before(async () => {
  ensureBinary();
  server = await startServer();
  // A bot with no token that says what it plays with.
  engineBot = new Client(server.wsUrl, 'enginebot');
  await new Promise((res, rej) => { engineBot.ws.once('open', res); engineBot.ws.once('error', rej); });
  engineBot.send({ type: 'hello', version: 3, name: 'enginebot', engine: { search: 'random' } });
  engineBot.welcome = await engineBot.next((m) => m.type === 'welcome');
  // Another guest who has chosen a name already.
  other = await new Client(server.wsUrl, 'other').hello();
  other.send({ type: 'set_name', name: 'Grace Hopper' });
  await other.next((m) => m.type === 'name_set');
  b = await openBrowser();
});
after(async () => {
  for (const c of [engineBot, other]) if (c) c.ws.close();
  if (b) await b.browser.close();
  if (server) await server.stop();
});

async function chooseName(page, name) {
  // Set through the DOM, as a paste would: the input's maxlength only limits typing.
  await page.evaluate((value) => { document.querySelector('[data-testid=name-input]').value = value; }, name);
  await page.click('[data-testid=name-save]');
}

test('a guest chooses a name, sees it, and sees why a bad one is refused; an engine is a BOT', { timeout: 60000 }, async (t) => {
  assert.equal(engineBot.welcome.player.bot, true, 'a hello with an engine makes a bot');
  const { page, errors } = b;
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You: guest#")');
  await page.waitForSelector('[data-testid=name-form]:visible');

  // A good name: shown in the header and in the lobby's list, marked as us.
  await page.fill('[data-testid=name-input]', 'Ada Lovelace');
  await page.click('[data-testid=name-save]');
  await page.waitForSelector('[data-testid=who]:has-text("You: Ada Lovelace")');
  await page.waitForSelector('[data-testid=players] li:has-text("Ada Lovelace"):has-text("(you)")');
  assert.equal(await page.isVisible('[data-testid=name-error]'), false);

  // The program without a token is badged as a bot, not as a person.
  const botRow = page.locator('[data-testid=players] li', { hasText: 'enginebot#' });
  await botRow.locator('.badge.bot').waitFor();
  assert.equal(await botRow.locator('.badge.human').count(), 0, 'no HUMAN badge on a program');
  await screenshot(page, 'identity-named');

  // A control character: refused, and the server's reason shown.
  await chooseName(page, 'bad\u0007name');
  await page.waitForSelector('[data-testid=name-error]:visible');
  assert.equal(await page.textContent('[data-testid=name-error]'),
    "Name refused: field 'name' contains a control character (U+0007) at character 4");
  // Too long.
  await chooseName(page, 'x'.repeat(40));
  await page.waitForSelector('[data-testid=name-error]:has-text("longer than 32 characters")');
  // Taken by another player (letters compared without case).
  await chooseName(page, 'grace hopper');
  await page.waitForSelector('[data-testid=name-error]:has-text("the name \'grace hopper\' is taken by another player")');
  await screenshot(page, 'identity-refused');
  // None of them changed who we are.
  assert.equal(await page.textContent('[data-testid=who]'), 'You: Ada Lovelace');

  // A reload: the same guest (the session cookie), still so named.
  await page.reload();
  await page.waitForSelector('[data-testid=who]:has-text("You: Ada Lovelace")');
  assert.deepEqual(errors, [], `no script or console errors: ${errors.join('; ')}`);
  t.diagnostic('named Ada Lovelace; refusals shown for a control character, 40 characters, a taken name');
});
