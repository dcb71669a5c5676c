// Tests of the Harkness Apps Script, offline: `node --test deploy/apps-script/`.
//
// Code.js runs in a fresh V8 context whose globals are small stand-ins for the Apps Script
// services it uses (SpreadsheetApp, PropertiesService, UrlFetchApp, ScriptApp, CacheService),
// each recording what the script asked of it, as Apps Script would run it.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const SOURCE = fs.readFileSync(path.join(__dirname, 'Code.js'), 'utf8');
const SPREADSHEET_ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const ENDPOINT = 'https://harkness.example.org/sync';
const SECRET = 'correct horse battery staple';

/** A sheet (tab) stand-in; worker tabs carry the worker's developer metadata. */
function makeSheet(name, metadataKeys = []) {
  return {
    getName: () => name,
    getDeveloperMetadata: () => metadataKeys.map((key) => ({ getKey: () => key })),
  };
}

/** A fresh Apps Script world: the services, what they recorded, and the loaded script. */
function world({ properties = { HARKNESS_ENDPOINT: ENDPOINT, HARKNESS_SECRET: SECRET },
  status = 202, fetchError = null, body = '' } = {}) {
  const recorded = { fetches: [], toasts: [], menus: [], triggers: [], deleted: [], warnings: [] };
  let now = 0; // seconds, for the cache's expiry
  const cache = new Map();
  const spreadsheet = {
    getId: () => SPREADSHEET_ID,
    toast: (message, title, seconds) => recorded.toasts.push({ message, title, seconds }),
  };
  const services = {
    SpreadsheetApp: {
      getActiveSpreadsheet: () => spreadsheet,
      getUi: () => ({
        createMenu(title) {
          const menu = { title, items: [] };
          const builder = {
            addItem(caption, handler) { menu.items.push({ caption, handler }); return builder; },
            addToUi() { recorded.menus.push(menu); },
          };
          return builder;
        },
      }),
    },
    PropertiesService: {
      getScriptProperties: () => ({ getProperty: (key) => properties[key] ?? null }),
    },
    UrlFetchApp: {
      fetch(url, params) {
        recorded.fetches.push({ url, params });
        if (fetchError) throw new Error(fetchError);
        return { getResponseCode: () => status, getContentText: () => body };
      },
    },
    ScriptApp: {
      getProjectTriggers: () => recorded.triggers.slice(),
      newTrigger(handler) {
        const trigger = { handler, source: null, event: null };
        const builder = {
          forSpreadsheet(target) { trigger.source = target.getId(); return builder; },
          onEdit() { trigger.event = 'edit'; return builder; },
          create() {
            const made = {
              getHandlerFunction: () => trigger.handler,
              getTriggerSourceId: () => trigger.source,
              event: trigger.event,
            };
            recorded.triggers.push(made);
            return made;
          },
        };
        return builder;
      },
      deleteTrigger(trigger) {
        recorded.deleted.push(trigger);
        recorded.triggers.splice(recorded.triggers.indexOf(trigger), 1);
      },
    },
    CacheService: {
      getDocumentCache: () => ({
        get(key) {
          const entry = cache.get(key);
          return entry && entry.until > now ? entry.value : null;
        },
        put(key, value, seconds) { cache.set(key, { value, until: now + seconds }); },
      }),
    },
    console: { warn: (message) => recorded.warnings.push(message), log() {} },
  };
  const context = vm.createContext(services);
  vm.runInContext(SOURCE, context, { filename: 'Code.js' });
  return {
    script: context,
    recorded,
    spreadsheet,
    wait(seconds) { now += seconds; },
    edit(sheet) { context.harknessOnEdit({ source: spreadsheet, range: { getSheet: () => sheet } }); },
  };
}

test('opening the spreadsheet adds a Harkness menu with "Recompute standings"', () => {
  const w = world();
  w.script.onOpen({});
  assert.equal(w.recorded.menus.length, 1);
  const menu = w.recorded.menus[0];
  assert.equal(menu.title, 'Harkness');
  assert.deepEqual(menu.items[0], { caption: 'Recompute standings', handler: 'recomputeStandings' });
  assert.deepEqual(menu.items[1], { caption: 'Pair next round', handler: 'pairNextRound' });
  for (const item of menu.items) {
    assert.equal(typeof w.script[item.handler], 'function', `${item.handler} exists`);
  }
});

test('Recompute standings posts the spreadsheet id to the endpoint with the shared secret', () => {
  const w = world();
  const result = w.script.recomputeStandings();
  assert.equal(result.ok, true);
  assert.equal(w.recorded.fetches.length, 1);
  const { url, params } = w.recorded.fetches[0];
  assert.equal(url, ENDPOINT);
  assert.equal(params.method, 'post');
  assert.equal(params.contentType, 'application/json');
  assert.equal(params.headers['X-Harkness-Secret'], SECRET);
  assert.deepEqual(JSON.parse(params.payload), { spreadsheetId: SPREADSHEET_ID, reason: 'menu' });
  assert.equal(params.muteHttpExceptions, true);
  assert.match(w.recorded.toasts[0].message, /recomputed in a few seconds/);
});

test('the secret and the endpoint come from the Script Properties, never from the code', () => {
  assert.doesNotMatch(SOURCE, new RegExp(SECRET));
  assert.doesNotMatch(SOURCE, /https:\/\/harkness\.example\.org\/sync['"]/);
  const w = world({ properties: {} });
  const result = w.script.recomputeStandings();
  assert.equal(result.ok, false);
  assert.equal(w.recorded.fetches.length, 0, 'nothing is sent without a configured endpoint');
  assert.match(w.recorded.toasts[0].message, /HARKNESS_ENDPOINT and HARKNESS_SECRET/);
});

test('a refused secret and an unreachable worker are told to the TD, not thrown', () => {
  const refused = world({ status: 401 });
  assert.match(refused.script.recomputeStandings().message, /refused the secret/);
  const busy = world({ status: 503 });
  assert.match(busy.script.recomputeStandings().message, /answered 503/);
  const down = world({ fetchError: 'DNS error' });
  const result = down.script.recomputeStandings();
  assert.equal(result.ok, false);
  assert.match(down.recorded.toasts[0].message, /Could not reach the Harkness worker: DNS error/);
});

test('the on-edit trigger is installed once, for this spreadsheet, and can be removed', () => {
  const w = world();
  w.script.installEditTrigger();
  w.script.installEditTrigger();
  assert.equal(w.recorded.triggers.length, 1);
  const trigger = w.recorded.triggers[0];
  assert.equal(trigger.getHandlerFunction(), 'harknessOnEdit');
  assert.equal(trigger.getTriggerSourceId(), SPREADSHEET_ID);
  assert.equal(trigger.event, 'edit');
  w.script.removeEditTrigger();
  assert.equal(w.recorded.triggers.length, 0);
  assert.equal(w.recorded.deleted.length, 1);
});

test('an edit of the results asks for a sync; an edit of a worker tab does not', () => {
  const w = world();
  w.edit(makeSheet('Standings', ['harkness.tab']));
  assert.equal(w.recorded.fetches.length, 0);
  w.edit(makeSheet('Results'));
  assert.equal(w.recorded.fetches.length, 1);
  assert.equal(JSON.parse(w.recorded.fetches[0].params.payload).reason, 'edit');
});

test('a burst of edits is throttled, but never for as long as the worker debounces', () => {
  const w = world();
  const results = makeSheet('Results');
  w.edit(results);
  w.wait(1);
  w.edit(results);
  assert.equal(w.recorded.fetches.length, 1, 'the second edit falls in the throttle window');
  w.wait(1.5);
  w.edit(results);
  assert.equal(w.recorded.fetches.length, 2, 'after the window, edits call again');
  // The worker syncs 5 s (its default debounce) after the last call it received, so an edit
  // skipped within THROTTLE_SECONDS of that call is read by that sync.
  assert.ok(w.script.THROTTLE_SECONDS < 5);
});

test('a failing worker never breaks the TD\'s editing', () => {
  const w = world({ fetchError: 'timeout' });
  assert.doesNotThrow(() => w.edit(makeSheet('Results')));
  assert.match(w.recorded.warnings[0], /could not reach the worker: timeout/);
});

test('Pair next round posts to /pair beside the sync endpoint and shows the worker\'s answer', () => {
  const body = JSON.stringify({ paired: true, message: 'Round 2 is paired: see the Pairings Rd 2 tab.' });
  const w = world({ status: 200, body });
  const result = w.script.pairNextRound();
  assert.equal(result.ok, true);
  assert.equal(w.recorded.fetches.length, 1);
  const { url, params } = w.recorded.fetches[0];
  assert.equal(url, 'https://harkness.example.org/pair');
  assert.equal(params.method, 'post');
  assert.equal(params.headers['X-Harkness-Secret'], SECRET);
  assert.deepEqual(JSON.parse(params.payload), { spreadsheetId: SPREADSHEET_ID });
  assert.equal(w.recorded.toasts[0].message, 'Round 2 is paired: see the Pairings Rd 2 tab.');
});

test('a round the worker cannot pair, and a worker that does not pair, are told to the TD', () => {
  const body = JSON.stringify({ paired: false, message: 'Not paired: Harkness!B4: set the number of rounds here to pair rounds' });
  const refused = world({ status: 200, body });
  const result = refused.script.pairNextRound();
  assert.equal(result.ok, false);
  assert.match(refused.recorded.toasts[0].message, /set the number of rounds/);
  assert.match(world({ status: 501 }).script.pairNextRound().message, /harkness\[pairing\]/);
  assert.match(world({ status: 401 }).script.pairNextRound().message, /refused the secret/);
  assert.match(world({ status: 200, body: 'not json' }).script.pairNextRound().message, /cannot read/);
  const down = world({ fetchError: 'DNS error' });
  assert.equal(down.script.pairNextRound().ok, false);
  assert.match(down.recorded.toasts[0].message, /Could not reach the Harkness worker: DNS error/);
});

test('the pairing URL is /pair whatever the endpoint ends with', () => {
  const w = world();
  assert.equal(w.script.pairUrl_('https://h.example.org/sync'), 'https://h.example.org/pair');
  assert.equal(w.script.pairUrl_('https://h.example.org/sync/'), 'https://h.example.org/pair');
  assert.equal(w.script.pairUrl_('https://h.example.org/'), 'https://h.example.org/pair');
});
