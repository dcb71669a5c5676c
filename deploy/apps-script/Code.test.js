// Tests of the Harkness Apps Script, offline: `node --test deploy/apps-script/`.
//
// Code.js runs in a fresh V8 context whose globals are small stand-ins for the Apps Script
// services it uses (SpreadsheetApp, PropertiesService, UrlFetchApp, ScriptApp, CacheService,
// Utilities), each recording what the script asked of it, as Apps Script would run it. The
// script against the real worker, through Caddy, is tests/sheets/test_addon_through_caddy.py.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const SOURCE = fs.readFileSync(path.join(__dirname, 'Code.js'), 'utf8');
const SPREADSHEET_ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const ENDPOINT = 'https://harkness.example.org';
const KEY = 'f'.repeat(64);

/** A sheet (tab) stand-in; worker tabs carry the worker's developer metadata. */
function makeSheet(name, metadataKeys = []) {
  return {
    getName: () => name,
    getDeveloperMetadata: () => metadataKeys.map((key) => ({ getKey: () => key })),
  };
}

/** The answer the worker gives by route, unless a test says otherwise. */
function workerAnswer(url) {
  if (url.endsWith('/connect')) return { status: 200, body: '{"connected": true}' };
  if (url.endsWith('/pair')) return { status: 200, body: '{"paired": true, "message": "ok"}' };
  if (url.endsWith('/disconnect')) return { status: 200, body: '{"connected": false}' };
  return { status: 202, body: '{}' };
}

/** A fresh Apps Script world: the services, what they recorded, and the loaded script. */
function world({ script = { HARKNESS_ENDPOINT: ENDPOINT }, user = { HARKNESS_KEY: KEY },
  answer = workerAnswer, fetchError = null, editor = true } = {}) {
  const recorded = { fetches: [], toasts: [], menus: [], triggers: [], deleted: [], warnings: [] };
  const metadata = []; // the spreadsheet's developer metadata: {key, value, visibility}
  let now = 0; // seconds, for the cache's expiry
  const cache = new Map();
  const spreadsheet = {
    getId: () => SPREADSHEET_ID,
    toast: (message, title, seconds) => recorded.toasts.push({ message, title, seconds }),
    getDeveloperMetadata: () => metadata.map((entry) => ({
      getKey: () => entry.key,
      getValue: () => entry.value,
      remove() { metadata.splice(metadata.indexOf(entry), 1); },
    })),
    addDeveloperMetadata(key, value, visibility) {
      if (!editor) throw new Error('You do not have permission to edit this spreadsheet');
      metadata.push({ key, value, visibility });
      return spreadsheet;
    },
  };
  const store = (values) => ({
    getProperty: (key) => values[key] ?? null,
    setProperty: (key, value) => { values[key] = value; },
    deleteProperty: (key) => { delete values[key]; },
  });
  const services = {
    SpreadsheetApp: {
      DeveloperMetadataVisibility: { DOCUMENT: 'DOCUMENT', PROJECT: 'PROJECT' },
      getActiveSpreadsheet: () => spreadsheet,
      getUi: () => ({
        createMenu(title) {
          const menu = { title, items: [] };
          const builder = {
            addItem(caption, handler) { menu.items.push({ caption, handler }); return builder; },
            addSeparator() { return builder; },
            addToUi() { recorded.menus.push(menu); },
          };
          return builder;
        },
      }),
    },
    PropertiesService: {
      getScriptProperties: () => store(script),
      getUserProperties: () => store(user),
    },
    Utilities: {
      DigestAlgorithm: { SHA_256: 'SHA_256' },
      Charset: { UTF_8: 'UTF_8' },
      getUuid: () => crypto.randomUUID(),
      // As Apps Script answers: Java's signed bytes.
      computeDigest: (algorithm, value, charset) => {
        assert.equal(algorithm, 'SHA_256');
        assert.equal(charset, 'UTF_8');
        return [...crypto.createHash('sha256').update(value, 'utf8').digest()]
          .map((b) => (b > 127 ? b - 256 : b));
      },
    },
    UrlFetchApp: {
      fetch(url, params) {
        recorded.fetches.push({ url, params });
        if (fetchError) throw new Error(fetchError);
        const { status, body } = answer(url, params, recorded.fetches.length);
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
    metadata,
    user,
    spreadsheet,
    wait(seconds) { now += seconds; },
    edit(sheet) { context.harknessOnEdit({ source: spreadsheet, range: { getSheet: () => sheet } }); },
  };
}

const sha256 = (text) => 'sha256:' + crypto.createHash('sha256').update(text).digest('hex');

test('opening the spreadsheet adds a Harkness menu whose items all exist', () => {
  const w = world();
  w.script.onOpen({});
  assert.equal(w.recorded.menus.length, 1);
  const menu = w.recorded.menus[0];
  assert.equal(menu.title, 'Harkness');
  assert.deepEqual(menu.items[0], {
    caption: 'Recompute standings and awards', handler: 'recomputeStandings',
  });
  assert.deepEqual(menu.items[1], { caption: 'Pair next round', handler: 'pairNextRound' });
  const handlers = menu.items.map((item) => item.handler);
  assert.ok(handlers.includes('connectSheet') && handlers.includes('disconnectSheet'));
  for (const item of menu.items) {
    assert.equal(typeof w.script[item.handler], 'function', `${item.handler} exists`);
  }
});

test('Connect makes a new key, writes its hash into the sheet and sends the key to /connect', () => {
  const w = world({ user: {} });
  const result = w.script.connectSheet();
  assert.equal(result.ok, true);
  const key = w.user.HARKNESS_KEY;
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.deepEqual(w.metadata, [
    { key: 'harkness.addonKey', value: sha256(key), visibility: 'DOCUMENT' },
  ]);
  assert.equal(w.recorded.fetches.length, 1);
  const { url, params } = w.recorded.fetches[0];
  assert.equal(url, 'https://harkness.example.org/connect');
  assert.equal(params.headers['X-Harkness-Key'], key);
  assert.deepEqual(JSON.parse(params.payload), { spreadsheetId: SPREADSHEET_ID });
  assert.equal(params.followRedirects, false);
  assert.match(w.recorded.toasts[0].message, /connected/);
});

test('Connect again renews this editor\'s key and leaves the other editors\' alone', () => {
  const w = world({ user: {} });
  const deputys = { key: 'harkness.addonKey', value: sha256('d'.repeat(64)), visibility: 'DOCUMENT' };
  w.metadata.push(deputys);
  w.script.connectSheet();
  const first = w.user.HARKNESS_KEY;
  assert.deepEqual(w.metadata.map((m) => m.value), [deputys.value, sha256(first)]);
  w.script.connectSheet();
  const second = w.user.HARKNESS_KEY;
  assert.notEqual(first, second);
  assert.deepEqual(w.metadata.map((m) => m.value), [deputys.value, sha256(second)]);
});

test('a viewer cannot connect the sheet, and nothing is sent', () => {
  const w = world({ user: {}, editor: false });
  const result = w.script.connectSheet();
  assert.equal(result.ok, false);
  assert.match(result.message, /Only an editor/);
  assert.equal(w.recorded.fetches.length, 0);
  assert.equal(w.user.HARKNESS_KEY, undefined);
});

test('a refused connect says what the worker said', () => {
  const answer = () => ({ status: 401, body: '{"error": "this spreadsheet does not hold this key"}' });
  const w = world({ user: {}, answer });
  assert.match(w.script.connectSheet().message, /Not connected: this spreadsheet does not hold/);
});

test('Recompute standings posts the spreadsheet id to /sync with the sheet\'s key', () => {
  const w = world();
  const result = w.script.recomputeStandings();
  assert.equal(result.ok, true);
  assert.equal(w.recorded.fetches.length, 1);
  const { url, params } = w.recorded.fetches[0];
  assert.equal(url, 'https://harkness.example.org/sync');
  assert.equal(params.method, 'post');
  assert.equal(params.contentType, 'application/json');
  assert.equal(params.headers['X-Harkness-Key'], KEY);
  assert.deepEqual(JSON.parse(params.payload), { spreadsheetId: SPREADSHEET_ID, reason: 'menu' });
  assert.equal(params.muteHttpExceptions, true);
  assert.match(w.recorded.toasts[0].message, /recomputed in a few seconds/);
});

test('an endpoint written with /sync (older setups) or a trailing slash still works', () => {
  for (const endpoint of ['https://h.example.org/sync', 'https://h.example.org/sync/',
    'https://h.example.org/']) {
    const w = world({ script: { HARKNESS_ENDPOINT: endpoint } });
    w.script.pairNextRound();
    assert.equal(w.recorded.fetches[0].url, 'https://h.example.org/pair');
  }
});

test('the add-on refuses an http:// endpoint: the key is never sent in the clear', () => {
  for (const endpoint of ['http://harkness.example.org', 'HTTP://h.example.org/sync',
    'harkness.example.org', 'https://', ' http://127.0.0.1:8080']) {
    const w = world({ script: { HARKNESS_ENDPOINT: endpoint } });
    const results = [w.script.connectSheet(), w.script.recomputeStandings(),
      w.script.pairNextRound()];
    w.edit(makeSheet('Results'));
    assert.equal(w.recorded.fetches.length, 0, endpoint);
    for (const result of results) {
      assert.equal(result.ok, false);
      assert.match(result.message, /must be an https:\/\/ address/);
    }
    assert.match(w.recorded.warnings[0], /https/);
  }
});

test('the endpoint comes from the Script Properties and the key from the editor\'s own, never the code', () => {
  assert.doesNotMatch(SOURCE, /['"]https:\/\/[a-z]/); // no address is written in the code
  const unset = world({ script: {} });
  assert.equal(unset.script.recomputeStandings().ok, false);
  assert.equal(unset.recorded.fetches.length, 0, 'nothing is sent without a configured endpoint');
  assert.match(unset.recorded.toasts[0].message, /add HARKNESS_ENDPOINT/);
  const unconnected = world({ user: {} });
  assert.match(unconnected.script.recomputeStandings().message, /Connect this sheet/);
  assert.equal(unconnected.recorded.fetches.length, 0);
});

test('a worker that forgot the key is connected again with it, and the call repeated', () => {
  const answer = (url, params, n) => (n === 1
    ? { status: 401, body: '{"error": "not connected", "connect": true}' }
    : workerAnswer(url));
  const w = world({ answer });
  w.metadata.push({ key: 'harkness.addonKey', value: sha256(KEY), visibility: 'DOCUMENT' });
  assert.equal(w.script.recomputeStandings().ok, true);
  assert.deepEqual(w.recorded.fetches.map((f) => f.url.replace(ENDPOINT, '')),
    ['/sync', '/connect', '/sync']);
  assert.ok(w.recorded.fetches.every((f) => f.params.headers['X-Harkness-Key'] === KEY));
  assert.deepEqual(w.metadata.map((m) => m.value), [sha256(KEY)], 'the key is not renewed');
});

test('a refused key, a busy worker and an unreachable one are told to the TD, not thrown', () => {
  const status = (code) => () => ({ status: code, body: '{"error": "x"}' });
  assert.match(world({ answer: status(401) }).script.recomputeStandings().message,
    /refused this sheet's key: an editor connects it again/);
  assert.match(world({ answer: status(429) }).script.recomputeStandings().message, /is busy: x\./);
  assert.match(world({ answer: () => ({ status: 429, body: '' }) }).script.recomputeStandings()
    .message, /busy with other requests/);
  assert.match(world({ answer: status(503) }).script.recomputeStandings().message,
    /is busy: x\./);
  assert.match(world({ answer: () => ({ status: 503, body: '' }) }).script.recomputeStandings()
    .message, /answered 503/);
  assert.match(world({ answer: () => ({ status: 500, body: '{"error": "x"}' }) }).script
    .recomputeStandings().message, /answered 500/);
  const down = world({ fetchError: 'DNS error' });
  const result = down.script.recomputeStandings();
  assert.equal(result.ok, false);
  assert.match(down.recorded.toasts[0].message, /Could not reach the Harkness worker: DNS error/);
});

test('Disconnect withdraws every editor\'s key from the worker and the sheet', () => {
  const w = world();
  w.metadata.push({ key: 'harkness.addonKey', value: sha256(KEY), visibility: 'DOCUMENT' });
  w.metadata.push({ key: 'harkness.inputHash', value: 'x', visibility: 'DOCUMENT' });
  w.metadata.push({ key: 'harkness.addonKey', value: sha256('d'.repeat(64)), visibility: 'DOCUMENT' });
  assert.equal(w.script.disconnectSheet().ok, true);
  assert.equal(w.recorded.fetches[0].url, 'https://harkness.example.org/disconnect');
  assert.equal(w.recorded.fetches[0].params.headers['X-Harkness-Key'], KEY);
  assert.deepEqual(w.metadata.map((m) => m.key), ['harkness.inputHash']);
  assert.equal(w.user.HARKNESS_KEY, undefined);
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

test('Pair next round posts to /pair with the key and shows the worker\'s answer', () => {
  const body = JSON.stringify({ paired: true, message: 'Round 2 is paired: see the Pairings Rd 2 tab.' });
  const w = world({ answer: () => ({ status: 200, body }) });
  const result = w.script.pairNextRound();
  assert.equal(result.ok, true);
  assert.equal(w.recorded.fetches.length, 1);
  const { url, params } = w.recorded.fetches[0];
  assert.equal(url, 'https://harkness.example.org/pair');
  assert.equal(params.headers['X-Harkness-Key'], KEY);
  assert.deepEqual(JSON.parse(params.payload), { spreadsheetId: SPREADSHEET_ID });
  assert.equal(w.recorded.toasts[0].message, 'Round 2 is paired: see the Pairings Rd 2 tab.');
});

test('a round the worker cannot pair, and a worker that does not pair, are told to the TD', () => {
  const answering = (status, body) => () => ({ status, body });
  const body = JSON.stringify({ paired: false, message: 'Not paired: Harkness!B4: set the number of rounds here to pair rounds' });
  const refused = world({ answer: answering(200, body) });
  const result = refused.script.pairNextRound();
  assert.equal(result.ok, false);
  assert.match(refused.recorded.toasts[0].message, /set the number of rounds/);
  assert.match(world({ answer: answering(501, '') }).script.pairNextRound().message, /harkness\[pairing\]/);
  assert.match(world({ answer: answering(401, '{}') }).script.pairNextRound().message, /refused this sheet's key/);
  assert.match(world({ answer: answering(200, 'not json') }).script.pairNextRound().message, /cannot read/);
  const quota = JSON.stringify({ paired: false, message: 'Harkness has used this minute\'s share of Google\'s quota for its service account: try again in 12 s' });
  assert.match(world({ answer: answering(503, quota) }).script.pairNextRound().message,
    /busy: Harkness has used this minute's share of Google's quota .* try again in 12 s\./);
  const down = world({ fetchError: 'DNS error' });
  assert.equal(down.script.pairNextRound().ok, false);
  assert.match(down.recorded.toasts[0].message, /Could not reach the Harkness worker: DNS error/);
});
