// The Harkness add-on (deploy/apps-script/Code.js) run for real: one menu action per run,
// its Apps Script services backed by real HTTP. Used by tests/sheets/test_addon_through_caddy.py.
//
//   node tests/sheets/addon_world.js ACTION STATE_FILE
//
// ACTION is a function of Code.js (connectSheet, recomputeStandings, pairNextRound,
// disconnectSheet). STATE_FILE (JSON) holds what Apps Script keeps between runs and what the
// test needs: {sheetsApi, token, spreadsheetId, script: {...}, user: {...}}; the run adds
// {result, toasts, fetches} and saves the properties back.
//
// - SpreadsheetApp's spreadsheet-level developer metadata goes to the Sheets API (the loopback
//   fake) as the TD's own account (its bearer token), so Google's permissions apply: a viewer's
//   write is refused as in Google.
// - UrlFetchApp.fetch is synchronous in Apps Script: here each fetch runs in a child Node
//   process (global fetch) that this one waits for; TLS is checked against the CAs Node trusts
//   plus NODE_EXTRA_CA_CERTS (Caddy's local CA in the test). Redirects are not followed when
//   the script says followRedirects: false; every status is answered (muteHttpExceptions).
'use strict';

const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const [action, stateFile] = process.argv.slice(2);
const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
state.toasts = [];
state.fetches = [];

const CHILD = `
let input = '';
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', async () => {
  const request = JSON.parse(input);
  try {
    const response = await fetch(request.url, {
      method: request.method, headers: request.headers, body: request.body,
      redirect: request.redirect,
    });
    process.stdout.write(JSON.stringify({ status: response.status, text: await response.text() }));
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: String(error.cause || error) }));
  }
});`;

/** One HTTP request, waited for: {status, text}; throws when the server cannot be reached. */
function fetchSync(url, { method = 'GET', headers = {}, body, redirect = 'follow' } = {}) {
  const done = spawnSync(process.execPath, ['-e', CHILD], {
    input: JSON.stringify({ url, method, headers, body, redirect }),
    encoding: 'utf8',
    timeout: 60000,
  });
  const answer = JSON.parse(done.stdout || '{"error": "no answer"}');
  if (answer.error) throw new Error(answer.error);
  return answer;
}

/** A call of the Sheets API as the TD; throws (as Apps Script does) when Google refuses. */
function sheetsApi(route, body) {
  const url = `${state.sheetsApi}/v4/spreadsheets/${state.spreadsheetId}${route}`;
  const answer = fetchSync(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${state.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 200) {
    throw new Error(`Sheets API ${answer.status}: ${answer.text.slice(0, 200)}`);
  }
  return JSON.parse(answer.text || '{}');
}

const spreadsheet = {
  getId: () => state.spreadsheetId,
  toast: (message) => state.toasts.push(message),
  getDeveloperMetadata() {
    const found = sheetsApi('/developerMetadata:search', {
      dataFilters: [{ developerMetadataLookup: { locationType: 'SPREADSHEET' } }],
    });
    return (found.matchedDeveloperMetadata || []).map(({ developerMetadata: m }) => ({
      getKey: () => m.metadataKey,
      getValue: () => m.metadataValue,
      remove() {
        sheetsApi(':batchUpdate', { requests: [{ deleteDeveloperMetadata: {
          dataFilter: { developerMetadataLookup: { metadataId: m.metadataId } } } }] });
      },
    }));
  },
  addDeveloperMetadata(key, value, visibility) {
    sheetsApi(':batchUpdate', { requests: [{ createDeveloperMetadata: { developerMetadata: {
      metadataKey: key, metadataValue: value, visibility, location: { spreadsheet: true } } } }] });
    return spreadsheet;
  },
};

const properties = (values) => ({
  getProperty: (key) => values[key] ?? null,
  setProperty: (key, value) => { values[key] = String(value); },
  deleteProperty: (key) => { delete values[key]; },
});

const services = {
  SpreadsheetApp: {
    DeveloperMetadataVisibility: { DOCUMENT: 'DOCUMENT', PROJECT: 'PROJECT' },
    getActiveSpreadsheet: () => spreadsheet,
  },
  PropertiesService: {
    getScriptProperties: () => properties(state.script),
    getUserProperties: () => properties(state.user),
  },
  Utilities: {
    DigestAlgorithm: { SHA_256: 'SHA_256' },
    Charset: { UTF_8: 'UTF_8' },
    getUuid: () => crypto.randomUUID(),
    computeDigest: (algorithm, value) => [...crypto.createHash('sha256').update(value, 'utf8')
      .digest()].map((b) => (b > 127 ? b - 256 : b)),
  },
  UrlFetchApp: {
    fetch(url, params) {
      state.fetches.push({ url, headers: Object.keys(params.headers || {}) });
      const answer = fetchSync(url, {
        method: (params.method || 'get').toUpperCase(),
        headers: { 'Content-Type': params.contentType, ...params.headers },
        body: params.payload,
        redirect: params.followRedirects === false ? 'manual' : 'follow',
      });
      return { getResponseCode: () => answer.status, getContentText: () => answer.text };
    },
  },
  console: { warn: (message) => state.toasts.push(message), log() {} },
};

const context = vm.createContext(services);
const source = path.join(__dirname, '..', '..', 'deploy', 'apps-script', 'Code.js');
vm.runInContext(fs.readFileSync(source, 'utf8'), context, { filename: 'Code.js' });
state.result = context[action]();
fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));
